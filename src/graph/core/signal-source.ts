/** @internal Where an attempt's signal comes from: the run's (made on first use), or the attempt's own (a timed node). */
export interface SignalSource {
  nodeSignal(): AbortSignal;
  /** The signal if it is there already; else `undefined` (the context's getter makes it when a node looks). */
  signalNow(): AbortSignal | undefined;
}
