"""A seed the server draws can be read back by a page (issue 10, session 37, s37-web).

Session 37's walk rolled the Play Manager's Dice Generator: it said "seed 8869547101974078000",
which is not the seed drawn (a page reads JSON numbers as doubles: 53 bits), so the roll could
not be made again from it. The server now draws seeds below 2**53 (a seed given is kept).
"""

from __future__ import annotations

from fastapi.testclient import TestClient

SAFE_SEED = 2**53  # a double's exact integers (warbench.web.api.SAFE_SEED)


def test_a_drawn_seed_survives_a_pages_numbers_s1_4(client: TestClient) -> None:
    for path, body in (("/api/dice/roll", {"expr": "6D6", "need": 4}), ("/api/dice/scatter", {})):
        seeds = [client.post(path, json=body).json()["seed"] for _ in range(40)]
        # what a page's JSON.parse keeps of each: the same number
        assert all(0 <= s < SAFE_SEED and float(s) == s for s in seeds), seeds
        assert len(set(seeds)) > 1  # still drawn, not one fixed seed
    # the shown seed makes the same roll again (Core Rules §1.4's Dice Generator, seeded)
    first = client.post("/api/dice/roll", json={"expr": "10D6"}).json()
    again = client.post("/api/dice/roll", json={"expr": "10D6", "seed": first["seed"]}).json()
    assert again["faces"] == first["faces"]
    big = client.post("/api/dice/roll", json={"expr": "D6", "seed": 2**62}).json()
    assert big["seed"] == 2**62  # a seed given is kept as it is
