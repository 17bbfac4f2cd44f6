"""Data shipped with raspis: the variant presets (variants/*.toml)."""
