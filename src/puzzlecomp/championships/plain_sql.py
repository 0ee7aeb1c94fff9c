"""Plain SQL for what every judge's record reads and writes: model instances read with one
statement, rows inserted and updated by SQL built once per model.

The ORM builds each statement anew, 0.3-0.7 ms against 0.03 ms to run it, and a judge's record
makes a dozen: in a burst of records they queue behind that cost (docs/performance.md). Values
pass through the fields' own conversions both ways, as the ORM's do, so an instance read here
equals the one the ORM reads. On PostgreSQL these statements bind their values on the server,
so psycopg prepares each after its fifth use (`prepare_threshold` in the settings) and the
server no longer parses and plans them for every record; the ORM's statements are unchanged.

    sql = f"SELECT {columns(Round, 'r')}, {columns(Event, 'e')} FROM {table(Round)} r ..."
    for rnd, event in fetch(sql, [round_id], Round, Event): ...
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.backends.utils import CursorWrapper
from django.db.models import Field, Model

M = TypeVar("M", bound=Model)
# A field's conversions of a stored value, in the order the ORM applies them.
Converter = Callable[[Any], Any]


def _connection() -> BaseDatabaseWrapper:
    return connections[DEFAULT_DB_ALIAS]


def _cursor(connection: BaseDatabaseWrapper) -> CursorWrapper:
    """A cursor in the connection's transaction; on PostgreSQL one that binds on the server
    (the ORM's bind on the client, and client-bound statements cannot be prepared), except
    while Django logs queries (DEBUG, a test capturing them): a prepared statement's log
    entry has no text."""
    if connection.vendor != "postgresql" or connection.queries_logged:
        return connection.cursor()
    from django.db.backends.postgresql.base import ServerBindingCursor

    # As connection.cursor() does: a connection the server dropped since the last request
    # fails its health check (CONN_HEALTH_CHECKS) and is opened again, instead of failing the
    # judge's record.
    connection.close_if_health_check_failed()
    connection.ensure_connection()
    # What connection.cursor() does with the cursor it creates (debug log, thread check).
    return connection._prepare_cursor(  # type: ignore[no-any-return]
        ServerBindingCursor(connection.connection))


def execute(sql: str, params: Sequence[Any]) -> list[tuple[Any, ...]]:
    """The rows of `sql` (one that returns rows), as the database gives them."""
    with _cursor(_connection()) as cursor:
        cursor.execute(sql, params)
        return list(cursor.fetchall())


@functools.cache
def quoted(name: str) -> str:
    """A column or table name quoted as standard SQL writes it, as SQLite and PostgreSQL read
    it (`table` and `group` are keywords)."""
    return '"' + name.replace('"', '""') + '"'


def table(model: type[Model]) -> str:
    return quoted(model._meta.db_table)


@functools.cache
def columns(model: type[Model], alias: str) -> str:
    """Every stored column of `model` under the table alias `alias`, in the order `fetch`
    reads them."""
    return ", ".join(f"{alias}.{quoted(f.column)}" for f in model._meta.concrete_fields)


def fetch(sql: str, params: Sequence[Any], *models: type[Model]) -> list[tuple[Any, ...]]:
    """The rows of `sql`, whose first columns are those of `models` (as `columns` writes them):
    each row as one instance per model (None where an outer join found no row), then the
    further columns as the database gave them."""
    connection = _connection()
    with _cursor(connection) as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    readers = [_reader(model, connection) for model in models]
    found = []
    for row in rows:
        start, instances = 0, []
        for model, (pk_index, converters) in zip(models, readers, strict=True):
            stored = row[start:start + len(converters)]
            start += len(converters)
            instances.append(None if stored[pk_index] is None else _instance(
                model, [convert(value) for convert, value in zip(converters, stored,
                                                                 strict=True)], connection))
        found.append((*instances, *row[start:]))
    return found


def insert(instance: M) -> M:
    """Store a new row of `instance` (its defaults and `auto_now` fields as `save` sets them)
    and give it its id."""
    connection = _connection()
    fields, sql = _insert_statement(type(instance))
    values = [f.get_db_prep_save(f.pre_save(instance, True), connection) for f in fields]
    with _cursor(connection) as cursor:
        cursor.execute(sql, values)
        (pk,) = cursor.fetchone()
    instance.pk = pk
    instance._state.adding = False
    instance._state.db = connection.alias
    return instance


def insert_many(instances: Sequence[Model]) -> None:
    """Store new rows of instances of one model in one `executemany` (their ids are not read
    back): thousands of rows in a fraction of what `bulk_create` takes."""
    if not instances:
        return
    connection = _connection()
    fields, sql = _insert_statement(type(instances[0]))
    sql = sql.rsplit(" RETURNING ", 1)[0]
    rows = [[f.get_db_prep_save(f.pre_save(instance, True), connection) for f in fields]
            for instance in instances]
    with _cursor(connection) as cursor:
        cursor.executemany(sql, rows)


def update(instance: Model) -> None:
    """Store every field of the saved `instance` (its `auto_now` fields as `save` sets them)."""
    connection = _connection()
    fields, sql = _update_statement(type(instance))
    values = [f.get_db_prep_save(f.pre_save(instance, False), connection) for f in fields]
    with _cursor(connection) as cursor:
        cursor.execute(sql, [*values, instance.pk])


def _instance(model: type[M], values: list[Any], connection: BaseDatabaseWrapper) -> M:
    return model.from_db(connection.alias, None, values)


# (model, connection) -> where the id is among its columns, and each column's conversion.
_readers: dict[tuple[type[Model], BaseDatabaseWrapper], tuple[int, tuple[Converter, ...]]] = {}


def _reader(model: type[Model],
            connection: BaseDatabaseWrapper) -> tuple[int, tuple[Converter, ...]]:
    """Where the id is among the model's columns, and each column's conversion (the backend's,
    then the field's own), per connection: a backend's conversions read its settings."""
    key = (model, connection)
    if key not in _readers:
        fields = model._meta.concrete_fields
        converters = tuple(_converter(field, connection) for field in fields)
        _readers[key] = [f.primary_key for f in fields].index(True), converters
    return _readers[key]


def _converter(field: Field[Any, Any], connection: BaseDatabaseWrapper) -> Converter:
    column = field.get_col(field.model._meta.db_table)
    steps = [*connection.ops.get_db_converters(column), *column.get_db_converters(connection)]
    if not steps:
        return _as_stored

    def convert(value: Any) -> Any:
        for step in steps:
            value = step(value, column, connection)
        return value

    return convert


def _as_stored(value: Any) -> Any:
    return value


_inserts: dict[type[Model], tuple[list[Field[Any, Any]], str]] = {}
_updates: dict[type[Model], tuple[list[Field[Any, Any]], str]] = {}


def _insert_statement(model: type[Model]) -> tuple[list[Field[Any, Any]], str]:
    if model not in _inserts:
        _inserts[model] = _insert_built(model)
    return _inserts[model]


def _update_statement(model: type[Model]) -> tuple[list[Field[Any, Any]], str]:
    if model not in _updates:
        _updates[model] = _update_built(model)
    return _updates[model]


def _insert_built(model: type[Model]) -> tuple[list[Field[Any, Any]], str]:
    fields = [f for f in model._meta.concrete_fields if f is not model._meta.auto_field]
    pk = model._meta.pk
    assert pk is not None
    names = ", ".join(quoted(f.column) for f in fields)
    marks = ", ".join(["%s"] * len(fields))
    return fields, (f"INSERT INTO {table(model)} ({names}) VALUES ({marks}) "
                    f"RETURNING {quoted(pk.column)}")


def _update_built(model: type[Model]) -> tuple[list[Field[Any, Any]], str]:
    pk = model._meta.pk
    assert pk is not None
    fields = [f for f in model._meta.concrete_fields if not f.primary_key]
    assignments = ", ".join(f"{quoted(f.column)} = %s" for f in fields)
    return fields, f"UPDATE {table(model)} SET {assignments} WHERE {quoted(pk.column)} = %s"
