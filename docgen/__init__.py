"""docgen: keep the documentation of a Docker image true to its Dockerfile.

The pipeline, one module a stage: `dockerfile` (read) → `evaluate` (ARG/ENV scope) → `components`
(sources and pins) → `model` → `render` (Jinja2 sections) → `markers` (inject between markers).
`docgen.pipeline.fill` is the whole pipeline for one document; the CLI and the MkDocs plugin both use it.
"""

__version__ = "0.1.0"
