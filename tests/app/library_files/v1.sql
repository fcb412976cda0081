PRAGMA user_version = 1;
BEGIN TRANSACTION;
CREATE TABLE entries (
            id INTEGER PRIMARY KEY,
            kind TEXT NOT NULL CHECK (kind IN ('pc', 'npc')),
            system_id TEXT NOT NULL,
            name TEXT NOT NULL,
            campaign TEXT NOT NULL DEFAULT '',
            side TEXT NOT NULL,
            attributes TEXT NOT NULL DEFAULT '{}',
            notes TEXT NOT NULL DEFAULT '',
            extra TEXT NOT NULL DEFAULT '{}',
            tags TEXT NOT NULL DEFAULT '',
            created TEXT NOT NULL,
            updated TEXT NOT NULL);
INSERT INTO "entries" VALUES(2,'npc','sr3','Corporate security guard','','opponent','{"ballistic": 5, "body": 4, "charisma": 3, "impact": 3, "initiative_dice": 1, "intelligence": 3, "quickness": 5, "reaction": 4, "reaction_natural": 4, "strength": 4, "willpower": 3}','Armor jacket (5/3), helmet, commlink to the security desk. Weapons: Ares Predator II (9M), stun baton (6S Stun). Skills: Pistols 4, Clubs 4, Unarmed Combat 3. Combat Pool 5.','{}','corp, security, guard','2026-12-02T00:24:30+00:00','2026-12-02T00:24:30+00:00');
INSERT INTO "entries" VALUES(3,'npc','sr3','Troll bouncer','','opponent','{"ballistic": 4, "body": 9, "charisma": 2, "impact": 2, "initiative_dice": 1, "intelligence": 2, "quickness": 3, "reaction": 2, "reaction_natural": 2, "strength": 8, "willpower": 3}','The GM''s own troll: club only.','{}','troll, metahuman, club, bouncer','2026-12-02T00:24:30+00:00','2026-12-02T00:24:31+00:00');
INSERT INTO "entries" VALUES(4,'npc','sr3','Street samurai','','opponent','{"ballistic": 6, "body": 6, "charisma": 2, "impact": 4, "initiative_dice": 3, "intelligence": 4, "quickness": 6, "reaction": 9, "reaction_natural": 5, "strength": 6, "willpower": 3}','Wired reflexes 2, smartlink, dermal plating 1, cybereyes (low-light, thermographic). Armor jacket (5/3) with dermal plating. Weapons: Ares Predator II with smartlink (9M), Ingram Smartgun (7M, burst), katana (STR+3 M). Skills: Pistols 6, Submachine Guns 5, Edged Weapons 5, Unarmed Combat 4. Combat Pool 6.','{}','runner, cyberware, samurai, merc','2026-12-02T00:24:30+00:00','2026-12-02T00:24:30+00:00');
INSERT INTO "entries" VALUES(5,'pc','sr3','Dave','Seattle 2060','player','{"body": 5}','','{}','','2026-12-02T00:24:31+00:00','2026-12-02T00:24:31+00:00');
CREATE TABLE seeded_bestiaries (file TEXT PRIMARY KEY, seeded TEXT NOT NULL);
INSERT INTO "seeded_bestiaries" VALUES('sr3.json','2026-12-02T00:24:30+00:00');
CREATE INDEX entries_by_system ON entries (system_id, kind, campaign);
COMMIT;
