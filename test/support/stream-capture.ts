import type { CaptureConnectionState, CaptureSubscription } from '../../server/capture/capture.port.js';
import type { CaptureEvent } from '../../server/capture/capture.types.js';
import { FakeCaptureApp } from '../../server/capture/capture.fake.js';

/** A fake capture app whose stream the test can drop and bring back (`setState`). */
export class StreamCapture extends FakeCaptureApp {
  setState: (s: CaptureConnectionState) => void = () => undefined;
  override subscribe(
    onEvent: (e: CaptureEvent) => void,
    onState: (s: CaptureConnectionState) => void = () => undefined,
  ): CaptureSubscription {
    this.setState = onState;
    return super.subscribe(onEvent, onState);
  }
}
