"""The pages of the Institute's attack dialog: shooting and melee, grenades and explosions, suppression fire."""
