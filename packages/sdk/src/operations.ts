import type { Operation, TMeta, TPagination } from '@credit/contract';
import type { InternalOperationId } from './internal-operations.ts';

/**
 * Every operation of the contract by its `operationId`, as a type: read off the contract's exports, so an
 * operation added there is callable here with no SDK code.
 */
type ContractExports = typeof import('@credit/contract');
type ContractOperationMap = {
  [K in keyof ContractExports as ContractExports[K] extends Operation
    ? ContractExports[K]['operationId']
    : never]: ContractExports[K];
};
/** Every operation id of the contract, the internal ones included (what the clients' route tables are typed by). */
export type AnyOperationId = keyof ContractOperationMap;

/** The operations a partner calls: every operation of the contract but the internal ones (internal-operations.ts). */
export type OperationMap = Omit<ContractOperationMap, InternalOperationId>;
export type OperationId = keyof OperationMap;

/**
 * Operations a user token (`ut_…`) may call: everything a browser or app can send, since client secrets and
 * access tokens stay on the partner's server.
 */
export type UserTokenOperationId = {
  [Id in OperationId]: OperationMap[Id]['auth'] extends { userToken: string } ? Id : never;
}[OperationId];

/** What a zod schema accepts and produces, read from its own type (no import of zod needed). */
type SchemaInput<S> = S extends { _zod: { input: infer I } } ? I : never;
type SchemaOutput<S> = S extends { _zod: { output: infer O } } ? O : never;

type RequestOf<Id extends AnyOperationId> = ContractOperationMap[Id]['request'];
type SuccessOf<Id extends AnyOperationId> = ContractOperationMap[Id]['success'];

type ParamsPart<R> = R extends { params: infer P } ? { params: SchemaInput<P> } : { params?: never };
// Query values travel as strings; the types are what the server reads them as, every one optional.
type QueryPart<R> = R extends { query: infer Q } ? { query?: Partial<SchemaOutput<Q>> } : { query?: never };
type BodyPart<R> = R extends { body: infer B }
  ? Record<string, never> extends SchemaInput<B>
    ? { body?: SchemaInput<B> }
    : { body: SchemaInput<B> }
  : { body?: never };

/** Options every call takes besides the request's own parts. */
export interface CallOptions {
  /** For an operation that honours `Idempotency-Key`: your own key instead of a generated one. */
  idempotencyKey?: string | undefined;
  /** Extra request headers (`X-Request-ID` for tracing, say). */
  headers?: Record<string, string> | undefined;
  signal?: AbortSignal | undefined;
}

/** The parameters, query and body of one operation, typed from its contract schemas. */
export type CallArgs<Id extends AnyOperationId> = ParamsPart<RequestOf<Id>> &
  QueryPart<RequestOf<Id>> &
  BodyPart<RequestOf<Id>> &
  CallOptions;

/** The arguments after the operation id: optional when nothing in them is required. */
export type CallArgsTuple<Id extends AnyOperationId> =
  Record<string, never> extends CallArgs<Id> ? [args?: CallArgs<Id>] : [args: CallArgs<Id>];

/** The contract's `Pagination` and `ResponseMeta`, by the names this SDK has exported them under. */
export type PaginationInfo = TPagination;
export type ResponseMeta = TMeta;

/** One page of a cursor list. */
export interface Page<Item> {
  data: Item[];
  pagination: PaginationInfo;
  meta: ResponseMeta;
}

type DataOf<Id extends AnyOperationId> = SuccessOf<Id> extends { data: infer D } ? SchemaOutput<D> : undefined;

/** What `call` resolves to: the resource, a page for a list, nothing for a 204, the raw body for OAuth. */
export type CallResult<Id extends AnyOperationId> =
  SuccessOf<Id> extends { list: true } ? Page<DataOf<Id>> : SuccessOf<Id> extends { data: unknown } ? DataOf<Id> : undefined;

/** The whole JSON body of a success (envelope included), as `request` returns it. */
export type ResponseBody<Id extends AnyOperationId> =
  SuccessOf<Id> extends { raw: true }
    ? DataOf<Id>
    : SuccessOf<Id> extends { list: true }
      ? Page<DataOf<Id>>
      : SuccessOf<Id> extends { data: unknown; meta: infer M }
        ? { data: DataOf<Id>; meta: ResponseMeta & SchemaOutput<M> }
        : SuccessOf<Id> extends { data: unknown }
          ? { data: DataOf<Id>; meta: ResponseMeta }
          : undefined;

/** Operations whose success is a cursor list. */
export type ListOperationId = {
  [Id in OperationId]: SuccessOf<Id> extends { list: true } ? Id : never;
}[OperationId];

/** The item type of a list operation. */
export type ListItem<Id extends ListOperationId> = DataOf<Id>;
