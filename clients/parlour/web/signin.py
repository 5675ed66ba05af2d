"""Sign-in for the web page (issue 34): the host's OpenID Connect provider, if any, that the
page signs people in with (authorization code + PKCE, in the browser: clients/web/src/
signin.ts). Off unless PARLOUR_OIDC_ISSUER and PARLOUR_OIDC_CLIENT_ID are both set; the
gateway must then verify that provider's ID tokens (PARLOUR_AUTH_*, audience = the
client id)."""

from __future__ import annotations

from pydantic import Field, model_validator

from parlour.settings import Settings


class SigninSettings(Settings):
    """PARLOUR_OIDC_ISSUER, PARLOUR_OIDC_CLIENT_ID (a public client: no secret) and
    PARLOUR_OIDC_SCOPE."""

    oidc_issuer: str = Field("", max_length=512, pattern=r"^(https?://\S+)?$")
    oidc_client_id: str = Field("", max_length=256, pattern=r"^\S*$")
    oidc_scope: str = Field("openid profile", max_length=256)

    @model_validator(mode="after")
    def _both_or_neither(self) -> SigninSettings:
        if bool(self.oidc_issuer) != bool(self.oidc_client_id):
            raise ValueError(
                "sign-in needs both PARLOUR_OIDC_ISSUER and PARLOUR_OIDC_CLIENT_ID (or neither)"
            )
        if self.oidc_issuer and "openid" not in self.oidc_scope.split():
            raise ValueError("PARLOUR_OIDC_SCOPE must include 'openid'")
        return self

    def page_settings(self) -> dict[str, str]:
        """What the page is told at /api/signin ({}: sign-in is off)."""
        if not self.oidc_issuer:
            return {}
        return {
            "issuer": self.oidc_issuer,
            "client_id": self.oidc_client_id,
            "scope": self.oidc_scope,
        }
