import type { z } from 'zod';
import { OpenApiSpec } from '../api/schema.js';
import { deleteCall, type KindModule } from './types.js';

export type OpenApiSpecOp =
  | { type: 'create-openapi-spec'; org: string; slug: string; url: string }
  | { type: 'update-openapi-spec'; org: string; slug: string; url: string }
  | { type: 'delete-openapi-spec'; org: string; slug: string };

const LIST = '/orgs/{org}/openapi';
const ROUTE = `${LIST}/{slug}`;
const output = (_answer: unknown, op: { slug: string }) => ({ id: op.slug });

/** An OpenAPI specification, by slug (the API cannot rename one). */
export const openApiSpecKind: KindModule<OpenApiSpecOp> = {
  kind: 'openapi-spec',
  ops: {
    'create-openapi-spec': {
      call: (op) => ({
        method: 'POST',
        route: LIST,
        params: { org: op.org },
        body: { slug: op.slug, source: { url: op.url } },
        expect: [201],
        answer: OpenApiSpec,
        create: true,
      }),
      output,
      adopt: {
        list: (op) => ({ route: LIST, params: { org: op.org }, item: OpenApiSpec }),
        find: (s: z.infer<typeof OpenApiSpec>, op) => s.slug === op.slug,
        output: (s: z.infer<typeof OpenApiSpec>) => ({ id: s.slug }),
      },
    },
    'update-openapi-spec': {
      call: (op) => ({
        method: 'PUT',
        route: ROUTE,
        params: { org: op.org, slug: op.slug },
        body: { source: { url: op.url } },
        expect: [200, 201],
        answer: OpenApiSpec,
      }),
    },
    'delete-openapi-spec': {
      call: (op, _r, caps) => deleteCall(ROUTE, { org: op.org, slug: op.slug }, caps),
    },
  },
};
