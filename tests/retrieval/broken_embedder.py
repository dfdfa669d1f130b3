"""A user's embedder module whose own import fails: a dependency is missing."""

import a_dependency_that_is_not_installed  # noqa: F401


def embed(texts: list[str]) -> list[list[float]]:
    return [[1.0] for _ in texts]
