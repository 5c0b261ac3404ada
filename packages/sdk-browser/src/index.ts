export { SvcBrowser, type SvcBrowserOptions } from './client';
export { PlaybackSession, type PlaybackEvents } from './playback-session';
export { SvcBrowserError, SvcNetworkError } from './http';
export type { AccessSession, BookingPayload, BookingRequest, BookingResult, PlaybackGrant, PlaybackResource, PublicEvent, Ticket } from './types';
export { SvcAuth, MemoryTokenStorage, type AuthSession, type TokenStorage, type SvcAuthOptions, type Destination } from './auth';
