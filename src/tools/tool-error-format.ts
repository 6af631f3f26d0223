/** How the error part of a tool result is written. */
export type ToolErrorFormat =
  /** `error: {type, message, context?, suggestion?}` (the course's structured form; the default). */
  | 'structured'
  /** `error: "<message>"`, RAF's flat string form, for peers that expect it (a suggestion is appended as a sentence). */
  | 'flat';
