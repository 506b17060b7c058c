"""Russian multi-pack Bezique («Безик»), docs/rules/bezique.md. The game object of the registry is
``game``; this file imports nothing, so that the rules import alone (without the wire, the schemas
or the other games)."""
