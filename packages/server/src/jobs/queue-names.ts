/**
 * Queues that code sends to from inside a transaction. They must exist before the first send: the server
 * creates them when its job queue starts, and `prepareJobQueues` creates them for a database with no worker
 * (the test template, a CLI).
 */
export const QUEUE_NAMES = {
  deliverWebhook: 'deliver-webhook',
  finishSimulatedAsset: 'streams-finish-simulated-asset',
  cutMomentClip: 'streams-cut-moment-clip',
  liveStreamReconnectWindow: 'streams-live-stream-reconnect-window',
  mediaProcessAsset: 'streams-media-process-asset',
} as const;
