"""Read models as pure folds over events."""
