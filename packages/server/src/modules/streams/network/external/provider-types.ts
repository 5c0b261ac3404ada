/** The parts of the provider's documented objects the adapter reads. */

export interface ProviderLiveInput {
  uid: string;
  rtmps: { url: string; streamKey: string };
  srt?: { url?: string; streamId?: string; passphrase?: string } | null;
  webRTC?: { url?: string } | null;
  enabled?: boolean;
  recording?: { mode?: string; timeoutSeconds?: number; requireSignedURLs?: boolean };
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
