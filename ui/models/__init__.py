"""Qt item models over the encounter (model/view adapters)."""
