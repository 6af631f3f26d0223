export { fromUIMessages, UI_MESSAGES_LIMITS, type FromUIMessagesOptions } from './from-ui-messages.js';
export { readChatRequest, type ReadChatRequestOptions, type UIChatRequest } from './read-chat-request.js';
export { resumeDecisionsFromUIMessages, type UIResume } from './resume-decisions.js';
export type { UIFilePart } from './ui-file-part.js';
export { UIMessagesError, type UIMessagesErrorOptions, type UIMessagesIssue, type UIMessagesIssueCode } from './ui-messages-error.js';
export type { AGUIErrorValue, AGUIEvent, AGUIOptions, AGUITokenUsage } from './ag-ui-events.js';
export { encodeAGUISSE, toAGUIResponse } from './ag-ui-response.js';
export { toAGUIEvents } from './to-ag-ui-events.js';
