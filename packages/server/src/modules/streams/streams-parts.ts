import { modulePart } from '../../core/modules/module-definition';
import type { VideoNetworks } from './network/video-networks';

/** The video networks Streams can use on a context (`simulated` for test mode); see docs/decisions.md. */
export const videoNetworksPart = modulePart<VideoNetworks>('streams.videoNetworks');
