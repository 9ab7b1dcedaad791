"""The embedded channel layer, for a workbench without Redis."""

from channels.layers import InMemoryChannelLayer


class EmbeddedChannelLayer(InMemoryChannelLayer):
    """Channels' in-memory layer, except that a message that waited past its expiry is only dropped.

    Channels' own layer also takes that channel out of every group, so a socket that fell a minute
    behind under load would never hear its session again, and no timer of sessions.delivery would
    know (it repairs dropped messages, not a lost membership). The Redis layer only drops the message.
    """

    def _remove_from_groups(self, channel: str) -> None:
        """Keep the channel in its groups: what it missed, its delivery sequence reads from the log."""
