// The <script>-tag build: everything the root entry exports, as the global `Faultline`.
export * from './index.js';
