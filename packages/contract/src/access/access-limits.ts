/** Numbers of the spec's Limits › Sessions and Customer token rows, shared by the server, the SDKs and the docs. */
export const ACCESS_LIMITS = {
  session: {
    /** Seconds between heartbeats the client is told to keep. */
    heartbeatIntervalSeconds: 30,
    /** Two missed heartbeats end a session: it lapses this long after the last one. */
    lapseSeconds: 90,
    /** A signed playback link outlives the session by this much. */
    linkGraceSeconds: 600,
    /** A player switches to the next source after this many fatal errors within the window. */
    failover: { maxErrors: 3, windowSeconds: 60 },
  },
  customerToken: {
    maxLifetimeSeconds: 900,
    maxAheadSeconds: 900,
    clockSkewSeconds: 60,
    subMaxLength: 255,
    audience: 'svc',
  },
  customer: { maxLength: 255 },
  deviceId: { maxLength: 255 },
} as const;
