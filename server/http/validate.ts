import type { z } from 'zod';
import { ValidationError } from '../core/errors.js';

export interface FieldIssue {
  field: string;
  message: string;
}

function fieldName(path: readonly PropertyKey[]): string {
  return path.length === 0 ? '(body)' : path.map(String).join('.');
}

/** Lists zod issues as `field: message`, with unknown keys named one by one. */
export function issuesOf(error: z.ZodError): FieldIssue[] {
  return error.issues.flatMap((issue): FieldIssue[] => {
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({ field: fieldName([...issue.path, key]), message: 'unknown field' }));
    }
    return [{ field: fieldName(issue.path), message: issue.message }];
  });
}

/** Parses untrusted input at the edge; a failure becomes a 400 that names the fields at fault. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown, what = 'request'): z.output<S> {
  const result = schema.safeParse(input);
  if (!result.success) {
    const issues = issuesOf(result.error);
    const summary = issues.map((i) => `${i.field}: ${i.message}`).join('; ');
    throw new ValidationError(`Invalid ${what}: ${summary}`, { issues });
  }
  return result.data;
}
