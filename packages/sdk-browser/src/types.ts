/** What opening, heartbeating and ending answer: the access session, with its playback `grant`. */
export interface AccessSession {
  id: string;
  object: 'access_session';
  entitlement: string;
  customer: string | null;
  contact_hash: string | null;
  resource: { type: string; id: string; variant: string | null };
  device_id: string;
  state: string;
  expires_at: string;
  heartbeat_interval: number;
  grant: PlaybackGrant;
}

export interface PlaybackGrant {
  /** In order of preference; a player plays the first and fails over to the next. */
  sources: { provider: string; url: string }[];
  failover: { max_errors: number; window_seconds: number };
  heartbeat_interval: number;
  token_expires_at: string | null;
}

/** A stream or asset id, or `{type, id, variant}`. */
export type PlaybackResource = string | { type: string; id: string; variant?: string | null };
