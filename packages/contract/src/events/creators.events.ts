import { defineEvents } from './define-events';
import { ContentSchema } from '../creators/contents.schemas';

// `data.object` is the content as the creator routes return it.
export const creatorsEvents = defineEvents({
  'creators.content.submitted': { payload: ContentSchema, description: 'A creator sent content for review.' },
  'creators.content.approved': { payload: ContentSchema, description: 'Tenant staff approved content (it is published at once when it can be).' },
  'creators.content.published': { payload: ContentSchema, description: 'Content became public (on approval, or by the publish fallback).' },
  'creators.content.rejected': { payload: ContentSchema, description: 'Tenant staff rejected content; `review_note` holds the reason.' },
  'creators.content.changes_requested': {
    payload: ContentSchema,
    description: 'Tenant staff asked for changes; `review_note` holds the message and `requested_items` the items.',
  },
});
