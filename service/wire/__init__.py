"""The vocabulary of the games' wire schemas (marshmallow fields and schema builders), below the
games in the import graph: nothing here imports Flask, the HTTP layer or a game."""
