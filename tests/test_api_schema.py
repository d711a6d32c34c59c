"""The OpenAPI schema is generated, served at /api/schema/, and validates."""

import re

import pytest
import yaml
from django.core.management import call_command

pytestmark = pytest.mark.django_db


def test_the_schema_validates_against_the_openapi_specification(tmp_path):
    pytest.importorskip("openapi_spec_validator", reason="validation needs openapi-spec-validator")
    path = tmp_path / "schema.yaml"
    # --validate runs openapi-spec-validator; --fail-on-warn makes any warning an error.
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(path))
    schema = yaml.safe_load(path.read_text())
    assert "/api/collections/{collection_id}/leaderboard/" in schema["paths"]
    for path in (
        "/api/campaigns/",
        "/api/campaigns/{campaign_id}/",
        "/api/campaigns/{campaign_id}/answers/",
        "/api/campaigns/{campaign_id}/mapping/",
        "/api/collections/{collection_id}/shares/create/",
        "/api/people/create/",
        "/api/relevance-campaigns/{campaign_id}/settings/update/",
        "/api/campaigns/{campaign_id}/settings/update/",
        "/api/campaigns/{campaign_id}/generator/run/",
        "/api/jobs/{job_id}/",
        "/api/collections/{collection_id}/results/settings/update/",
        "/api/campaigns/{campaign_id}/mapping/settings/update/",
    ):
        assert path in schema["paths"]
    assert "tokenAuth" in schema["components"]["securitySchemes"]


def test_the_schema_and_its_documentation_are_served(client, personas):
    assert client.get("/api/schema/").status_code == 200
    response = client.get("/api/docs/")
    assert response.status_code == 200
    assert b"swagger" in response.content.lower()


def test_the_documentation_page_loads_swagger_ui_from_this_server_not_a_cdn(client, personas):
    html = client.get("/api/docs/").content.decode()
    assert "/static/drf_spectacular_sidecar/swagger-ui-dist/" in html
    # Every script, stylesheet and image comes from this server: no address names
    # another host. (Searching the page for "cdn" failed whenever the random CSRF
    # token embedded in it happened to contain those three letters.)
    loaded = re.findall(r"""(?:src|href)\s*=\s*["']([^"']+)["']""", html)
    assert loaded, "the page loads nothing: the pattern above no longer matches it"
    assert [url for url in loaded if re.match(r"(?:[a-z]+:)?//", url)] == []
