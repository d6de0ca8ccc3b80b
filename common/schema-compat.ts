/**
 * Which databases a release can start on: the rule the service's migrator applies at start and
 * the deploy applies before it puts a release back (deploy/src/database/database-plan.ts). Shared
 * so that the two can never disagree. Depends on nothing.
 */

/** One row of `schema_migrations`, as the database records it. */
export interface AppliedMigration {
  version: number;
  name: string;
  /** Older code still works with it (an added table, index or nullable column). */
  backward_compatible: boolean;
}

/**
 * The migrations a release that knows the first `knownCount` migrations cannot run with: those
 * beyond what it knows that are not marked backward compatible. Empty: it starts on that database.
 */
export function blockingMigrations(applied: readonly AppliedMigration[], knownCount: number): AppliedMigration[] {
  return applied.filter((m) => m.version > knownCount && !m.backward_compatible);
}
