"""Alembic's entry point: run the migrations on the connection `newscrawl.store.migrations`
hands over (the store's own, inside its open transaction)."""

from alembic import context

config = context.config
context.configure(
    connection=config.attributes["connection"],
    on_version_apply=config.attributes.get("on_version_apply", ()),
)
with context.begin_transaction():
    context.run_migrations()
