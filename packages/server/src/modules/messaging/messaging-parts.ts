import { modulePart } from '../../core/modules/module-definition';
import type { MessageChannels } from './channels/message-channels';

/** The server's live-mode channel adapters, built from the configuration at setup. */
export const messageChannelsPart = modulePart<MessageChannels>('messaging.channels');
