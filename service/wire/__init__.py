"""The vocabulary of the games' wire forms, below the games in the import graph (nothing here
imports Flask, the HTTP layer or a game): strict marshmallow fields and schema builders
(``fields``, ``schemas``), the kinds of value a form is made of (``kinds``), and the declared
forms whose schemas, loaders and dumpers are generated at import (``form``, ``codegen``)."""
