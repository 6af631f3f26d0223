// A server project on Node with no browser types (`lib: ES2022`, `types: ["node"]`, node16 resolution): every entry's
// declarations must compile there, so none may name a type only the DOM library declares (`HeadersInit`…).
import type * as Root from 'faultline';
import type * as Errors from 'faultline/errors';
import type * as Tools from 'faultline/tools';
import type * as Chat from 'faultline/chat';
import type * as Agent from 'faultline/agent';
import type * as Graph from 'faultline/graph';
import type * as Runner from 'faultline/runner';
import type * as A2A from 'faultline/a2a';
import type * as Cloudflare from 'faultline/cloudflare';
import type * as MCP from 'faultline/mcp';
import type * as Resilience from 'faultline/resilience';
import type * as Telemetry from 'faultline/telemetry';
import type * as Interrupts from 'faultline/interrupts';
import type * as Testing from 'faultline/testing';
import type * as NodeEntry from 'faultline/node';
import type * as UI from 'faultline/ui';

export type Entries = [typeof Root, typeof Errors, typeof Tools, typeof Chat, typeof Agent, typeof Graph, typeof Runner, typeof A2A, typeof Cloudflare, typeof MCP, typeof Resilience, typeof Telemetry, typeof Interrupts, typeof Testing, typeof NodeEntry, typeof UI];
export type ResponseOptions = UI.UIMessageStreamResponseOptions;
