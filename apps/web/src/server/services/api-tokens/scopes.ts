import { z } from 'zod';

export const API_SCOPES = ['runs:read', 'runs:write'] as const;
export const ApiScopeSchema = z.enum(API_SCOPES);
export type ApiScope = z.infer<typeof ApiScopeSchema>;

export const SCOPE_HELP: Record<ApiScope, string> = {
  'runs:read': 'read experiments, runs, summaries and comparisons',
  'runs:write': 'start experiments, save baselines, create share links',
};
