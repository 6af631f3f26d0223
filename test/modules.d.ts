// Vite treats a query string as a separate module id; the brand tests load a second copy of a module that way.
declare module '*?copy' {
  const copy: unknown;
  export = copy;
}
