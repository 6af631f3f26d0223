/**
 * A file part of a `UIMessage` (`{ type: 'file', mediaType, url, filename? }`), as `fromUIMessages` hands it to its
 * `fileText` option: faultline's messages carry text, so a file reaches the model only as the text that option makes
 * of it.
 */
export interface UIFilePart {
  type: 'file';
  /** The IANA media type, e.g. `text/plain`, `image/png`. */
  mediaType: string;
  /** A data URL or a URL. */
  url: string;
  filename?: string;
}
