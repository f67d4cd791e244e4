"""Every DynamoDB table's keys and indexes, declared once.

The CDK stack creates the tables from these declarations, the local stack creates the
same tables in DynamoDB Local, and the store reads their names from the environment
variable each declaration names. Nothing else spells a key attribute or an index name.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tavla.frozen import Frozen


@dataclass(frozen=True, eq=False, repr=False)
class Index(Frozen):
    """A secondary index: `local` ones share the table's partition key (strongly consistent)."""

    name: str
    partition: str
    sort: str | None = None
    local: bool = False


@dataclass(frozen=True, eq=False, repr=False)
class TableSpec(Frozen):
    """A table as the store sees it: a logical name, its keys, its indexes."""

    name: str
    partition: str
    sort: str | None = None
    indexes: tuple[Index, ...] = field(default_factory=tuple)
    ttl_attribute: str | None = None
    private: bool = False  # holds personal data (R12): granted only where the registry says

    @property
    def env_var(self) -> str:
        """The environment variable that carries the physical table name."""
        return f"TABLE_{self.name.upper()}"

    def index(self, name: str) -> Index:
        return next(i for i in self.indexes if i.name == name)


# Tournaments and everything inside one (registrations, waiting list, rounds, matches,
# appeals, payments, audit), players' public profiles and in-app notifications.
MAIN = TableSpec(
    name="main",
    partition="pk",
    sort="sk",
    indexes=(
        # overloaded: "a player's tournaments" (registrations carry gsi1pk=PLAYER#<tavla_id>)
        # and the public calendar (tournaments carry gsi1pk=TOURNAMENTS, sorted by start)
        Index("gsi1", partition="gsi1pk", sort="gsi1sk"),
        # strongly consistent waiting-list order inside a tournament (sparse: waiting only)
        Index("waitlist", partition="pk", sort="wait_q", local=True),
        # the rating lists (R10.3), on the profile item itself so that a club or
        # city change moves the player with no second write; highest first by rating_key
        Index("ratings", partition="rating_list", sort="rating_key"),
        Index("ratings_club", partition="club", sort="rating_key"),  # free-text clubs, until mapped
        Index("ratings_club_id", partition="club_id", sort="rating_key"),  # a club record's list
        Index("ratings_city", partition="city", sort="rating_key"),
    ),
)

# Private contact data (R12): phone, e-mail, what category prizes need; and one claim item
# per phone number, so that a number belongs to one account at most (a condition, not a read).
CONTACTS = TableSpec(name="contacts", partition="pk", private=True)

# Powertools idempotency records.
IDEMPOTENCY = TableSpec(name="idempotency", partition="id", ttl_attribute="expiration")

TABLES: tuple[TableSpec, ...] = (MAIN, CONTACTS, IDEMPOTENCY)


def create_table_args(spec: TableSpec, physical_name: str) -> dict[str, Any]:
    """CreateTable arguments for a declared table (DynamoDB Local, moto in tests)."""
    attributes = {spec.partition, *([spec.sort] if spec.sort else [])}
    for index in spec.indexes:
        attributes |= {index.partition, *([index.sort] if index.sort else [])}

    def key_schema(partition: str, sort: str | None) -> list[dict[str, str]]:
        schema = [{"AttributeName": partition, "KeyType": "HASH"}]
        return [*schema, {"AttributeName": sort, "KeyType": "RANGE"}] if sort else schema

    args: dict[str, Any] = {
        "TableName": physical_name,
        "BillingMode": "PAY_PER_REQUEST",
        "AttributeDefinitions": [{"AttributeName": a, "AttributeType": "S"} for a in sorted(attributes)],
        "KeySchema": key_schema(spec.partition, spec.sort),
    }
    for kind, local in (("GlobalSecondaryIndexes", False), ("LocalSecondaryIndexes", True)):
        indexes = [
            {
                "IndexName": i.name,
                "KeySchema": key_schema(i.partition, i.sort),
                "Projection": {"ProjectionType": "ALL"},
            }
            for i in spec.indexes
            if i.local == local
        ]
        if indexes:
            args[kind] = indexes
    return args
