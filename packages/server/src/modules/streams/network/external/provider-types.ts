/** The parts of the provider's documented objects the adapter reads. */

export interface ProviderLiveInput {
  uid: string;
  rtmps: { url: string; streamKey: string };
  srt?: { url?: string; streamId?: string; passphrase?: string } | null;
  webRTC?: { url?: string } | null;
  enabled?: boolean;
  recording?: { mode?: string; timeoutSeconds?: number; requireSignedURLs?: boolean };
  deleteRecordingAfterDays?: number | null;
  /** The adapter keeps the inputs this one replaced here (key resets). */
  meta?: { previousInputs?: string[] } & Record<string, unknown>;
}

export interface ProviderVideo {
  uid: string;
  readyToStream?: boolean;
  status?: { state?: string; errReasonCode?: string; errReasonText?: string } | null;
  duration?: number;
  /** Bytes of the file. */
  size?: number;
  /** The live input a recording came from. */
  liveInput?: string | null;
  created?: string;
  modified?: string;
  meta?: Record<string, unknown>;
}

export interface ProviderSigningKey {
  id: string;
  /** Base64 PEM of the private key; only in the answer that created the key. */
  pem?: string;
  created?: string;
}

/** Where a video stands, in the service's words: `ready` only once the account can play it. */
export const videoStatus = (v: ProviderVideo): 'preparing' | 'ready' | 'errored' =>
  v.status?.state === 'error' ? 'errored' : v.readyToStream && v.status?.state === 'ready' ? 'ready' : 'preparing';
