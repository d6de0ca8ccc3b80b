/** A random token, also outside secure contexts (the booth is served over plain HTTP on the LAN). */
export function randomToken(): string {
  const bytes = new Uint8Array(12);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Lets the browser download a URL natively (streamed to disk, not held in memory). */
export function startDownload(url: string): void {
  const link = document.createElement('a');
  link.href = url;
  link.download = '';
  link.rel = 'noopener';
  document.body.appendChild(link);
  link.click();
  link.remove();
}

/**
 * Lets the browser download a URL that the server may refuse (a third ZIP export): through a hidden
 * frame, so that a refusal stays an answer in the frame (the booth's pages may not be framed: the
 * browser shows nothing) rather than a file saved from the error's JSON, as a link's download
 * would in some browsers (a failed download in others). A file sent as an attachment is downloaded
 * as from a link. Call the returned function once the download is known to have started or ended:
 * removing the frame then does not stop the download.
 */
export function startDownloadInFrame(url: string): () => void {
  const frame = document.createElement('iframe');
  frame.hidden = true;
  frame.setAttribute('aria-hidden', 'true');
  frame.tabIndex = -1;
  frame.src = url;
  document.body.appendChild(frame);
  return () => frame.remove();
}
