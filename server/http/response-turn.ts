import type { Request, Response } from 'express';

/**
 * Resolves once the response may be written to its connection: at once, unless the client sent
 * the request behind another on the same connection (HTTP/1.1 pipelining) whose answer is still
 * going, a live stream for instance; then when that answer is over. False when the connection
 * closed first. Work that holds something scarce (an export's place and process) starts only then:
 * a response still waiting its turn has no socket to watch, and may wait for ever.
 */
export function responseTurn(req: Request, res: Response): Promise<boolean> {
  if (res.socket) return Promise.resolve(true);
  const connection = req.socket;
  if (connection.destroyed) return Promise.resolve(false);
  return new Promise((resolve) => {
    const settle = (turn: boolean): void => {
      res.off('socket', onSocket);
      connection.off('close', onClose);
      resolve(turn);
    };
    const onSocket = (): void => settle(true);
    const onClose = (): void => settle(false);
    res.once('socket', onSocket);
    connection.once('close', onClose);
  });
}
