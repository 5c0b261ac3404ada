/** Reads QR codes from the camera: the browser's BarcodeDetector where it has one, else jsQR on canvas frames. */
export interface Scanner {
  stop(): void;
}

type Detector = { detect(source: CanvasImageSource): Promise<Array<{ rawValue: string }>> };

async function detectorOf(): Promise<(video: HTMLVideoElement, canvas: HTMLCanvasElement) => Promise<string | null>> {
  const Native = (globalThis as { BarcodeDetector?: new (o: { formats: string[] }) => Detector }).BarcodeDetector;
  if (Native) {
    const detector = new Native({ formats: ['qr_code'] });
    return async (video) => (await detector.detect(video))[0]?.rawValue ?? null;
  }
  // Loaded only on browsers without BarcodeDetector, in its own chunk.
  const { default: jsQR } = await import('jsqr');
  return async (video, canvas) => {
    const { videoWidth: w, videoHeight: h } = video;
    if (!w || !h) return null;
    canvas.width = w;
    canvas.height = h;
    const g = canvas.getContext('2d', { willReadFrequently: true })!;
    g.drawImage(video, 0, 0, w, h);
    return jsQR(g.getImageData(0, 0, w, h).data, w, h)?.data ?? null;
  };
}

/**
 * Starts the back camera in `video` and calls `onCode` for each code read; the same code is not reported again
 * within `repeatMs`, so a ticket held in front of the camera counts once.
 */
export async function startScanner(video: HTMLVideoElement, onCode: (text: string) => void, repeatMs = 3000): Promise<Scanner> {
  const stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: 'environment' }, audio: false });
  video.srcObject = stream;
  await video.play();
  const detect = await detectorOf();
  const canvas = document.createElement('canvas');
  let running = true;
  let last = { text: '', at: 0 };
  const tick = async () => {
    if (!running) return;
    try {
      const text = await detect(video, canvas);
      if (text && (text !== last.text || Date.now() - last.at > repeatMs)) {
        last = { text, at: Date.now() };
        onCode(text);
      }
    } catch {
      // A frame that could not be read; the next one may be.
    }
    setTimeout(() => void tick(), 200);
  };
  void tick();
  return {
    stop() {
      running = false;
      for (const track of stream.getTracks()) track.stop();
      video.srcObject = null;
    },
  };
}
