"""The channel layers: the embedded one, for a workbench without Redis, and the Redis one shared
between processes."""

from typing import Any

from channels.layers import InMemoryChannelLayer
from channels_redis.core import RedisChannelLayer
from redis.asyncio import BlockingConnectionPool


class EmbeddedChannelLayer(InMemoryChannelLayer):
    """Channels' in-memory layer, except that a message that waited past its expiry is only dropped.

    Channels' own layer also takes that channel out of every group, so a socket that fell a minute
    behind under load would never hear its session again, and no timer of sessions.delivery would
    know (it repairs dropped messages, not a lost membership). The Redis layer only drops the message.
    """

    def _remove_from_groups(self, channel: str) -> None:
        """Keep the channel in its groups: what it missed, its delivery sequence reads from the log."""


class SharedChannelLayer(RedisChannelLayer):  # type: ignore[misc]  # channels-redis ships no types
    """channels-redis's layer on a pool whose commands wait for a free connection.

    redis-py's own pool raises ``MaxConnectionsError`` once all its connections are busy: when a
    hundred sockets closed at once, their ``group_discard`` failed, and with it the rest of their
    disconnect (presence stayed "online"). A burst waits its turn instead, up to the pool's ``timeout``.
    """

    def create_pool(self, index: int) -> BlockingConnectionPool:
        host: dict[str, Any] = dict(self.hosts[index])
        return BlockingConnectionPool.from_url(host.pop("address"), **host)
