import type { RolePlan } from './role-plan';

/**
 * The media network (nginx-rtmp, ffmpeg) and the packaging of its assets. What it keeps is on its own machine
 * (nginx, who is publishing, the HLS on its disk), so it serves the API beside it: nginx calls back to it and
 * players fetch the HLS it wrote from it.
 */
export const mediaRole: RolePlan = { role: 'media', migrates: false, serves: 'app', places: ['api', 'media'] };
