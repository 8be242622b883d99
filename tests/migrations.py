"""Running the real database back to just before a data migration and forward again, for
the tests of data migrations."""

from django.db import connection
from django.db.migrations.executor import MigrationExecutor


def migrate_around(migration: tuple[str, str], *, before: bool):
    """Every app at its latest migration, or, `before`, at its latest one that does not need
    `migration` (its app just before it, apps whose later migrations build on it before
    those); the historical models of that state."""
    executor = MigrationExecutor(connection)
    graph = executor.loader.graph

    def without_migration(node):
        while migration in graph.forwards_plan(node):
            node = next(
                parent.key for parent in graph.node_map[node].parents if parent.key[0] == node[0]
            )
        return node

    targets = [without_migration(node) if before else node for node in graph.leaf_nodes()]
    leaf = next(node for node in graph.leaf_nodes() if node[0] == migration[0])
    assert migration in graph.forwards_plan(leaf), f"the test must follow the {migration[0]} app"
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps
