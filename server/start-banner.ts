import QRCode from 'qrcode';

export interface StartBannerInput {
  /** The console on loopback: the only address where a first run may choose the PIN. */
  consoleUrl: string;
  galleryUrl: string;
  pinSet: boolean;
  /** Seconds between the simulator's demo photos; undefined with a real capture app. */
  simulatorIntervalSeconds: number | undefined;
}

/**
 * What `npm start` prints: the console's loopback address first (the one that works on a first
 * run), how to choose the PIN, then the guests' address with a QR code a phone can scan off the
 * terminal.
 */
export async function startBanner(input: StartBannerInput): Promise<string> {
  const capture =
    input.simulatorIntervalSeconds === undefined
      ? ''
      : input.simulatorIntervalSeconds > 0
        ? ` with the capture-app simulator (a demo photo every ${input.simulatorIntervalSeconds} s)`
        : ' with the capture-app simulator';
  const lines = [`Boothdeck is running${capture}.`, '', `  Console, on this machine: ${input.consoleUrl}`];
  lines.push(
    input.pinSet
      ? '    Sign in with the admin PIN.'
      : '    No admin PIN yet: open this address on this machine and choose one (4 to 8 digits).',
  );
  const qr = await QRCode.toString(input.galleryUrl, { type: 'terminal', small: true });
  lines.push('', `  Guest gallery, on the booth's network: ${input.galleryUrl}`, qr);
  return lines.join('\n');
}
