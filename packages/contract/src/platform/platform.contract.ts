import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { errorResponses } from '../common/errors';
import { access } from '../common/access';

const c = initContract();

export const BuildInfoSchema = z
  .object({
    commit: z.string(),
    build_date: z.string(),
    version: z.string(),
    error: z.string().optional().describe('Present when the build information file is missing or unreadable.'),
  })
  .meta({ id: 'BuildInfo' });

export const platformContract = c.router({
  buildInfo: {
    method: 'GET',
    path: '/build-info',
    summary: 'Build information',
    description: 'The commit, build date and version of the running server, from the file its build wrote. Each is `unknown` (and `error` is set) when that file is missing.',
    responses: { 200: BuildInfoSchema, ...errorResponses(429, 500) },
    metadata: access({ auth: 'public' }),
  },
  status: {
    method: 'GET',
    path: '/v1/status',
    summary: 'Service status',
    description: 'Answers `{status: "ok"}` while the server accepts requests.',
    responses: { 200: z.object({ status: z.literal('ok') }), ...errorResponses(429, 500, 503) },
    metadata: access({ auth: 'public' }),
  },
});
