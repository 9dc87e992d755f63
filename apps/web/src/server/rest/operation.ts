import type { z } from 'zod';
import type { ApiPrincipal } from '~/server/services/api-tokens/authenticate-api-token';
import type { ApiScope } from '~/lib/api-scopes';
import type { RestDeps } from './deps';

export interface OperationContext<B, Q> {
  deps: RestDeps;
  principal: ApiPrincipal;
  params: Record<string, string>;
  query: Q;
  body: B;
}

export interface Operation {
  method: 'GET' | 'POST' | 'DELETE';
  /** OpenAPI path template below /api/v1 */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  scope: ApiScope;
  query?: z.ZodObject;
  /**
   * Rules across query parameters (JSON Schema keywords such as `not`, `dependentRequired`): the
   * OpenAPI document then describes the query as one exploded object with these rules, which is
   * the same query string, so generated clients know the rules too.
   */
  queryRules?: Record<string, unknown>;
  body?: z.ZodType;
  /** component names for the OpenAPI document */
  bodyName?: string;
  /** accepts an Idempotency-Key header: a retry returns the first response instead of acting twice */
  idempotent?: boolean;
  status: number;
  response: z.ZodType;
  responseName: string;
  // Method syntax: each operation's handle takes its own parsed body/query types (checked in op()).
  handle(ctx: OperationContext<unknown, unknown>): Promise<unknown>;
}

export function op<B extends z.ZodType | undefined, Q extends z.ZodObject | undefined>(
  o: Omit<Operation, 'handle' | 'body' | 'query'> & {
    body?: B;
    query?: Q;
    handle(
      ctx: OperationContext<
        B extends z.ZodType ? z.output<B> : undefined,
        Q extends z.ZodObject ? z.output<Q> : undefined
      >,
    ): Promise<unknown>;
  },
): Operation {
  return o;
}
