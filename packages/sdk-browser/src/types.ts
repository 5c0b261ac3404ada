import type { OpenSessionInput } from '@svc/contract';

// Shapes come from the contract (types only: nothing of it is bundled).
export type { AccessSession, SessionGrant as PlaybackGrant } from '@svc/contract';

/** A stream or asset id, or `{type, id, variant}`. */
export type PlaybackResource = OpenSessionInput['resource'];
