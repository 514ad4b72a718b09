"""An OAuth 2.0 / OpenID Connect provider apx did not write, for apx's login tests.

Authlib's own Flask AuthorizationServer, grants and endpoints (authorization code with PKCE,
refresh with rotation, device code, revocation, OpenID ID tokens) over in-memory objects, served
by werkzeug on 127.0.0.1, port 0; prints the port on stdout and serves until stdin closes (or
--lifetime seconds pass). The issuer is http://127.0.0.1:PORT. User: ada (sub "user-ada").
Clients: "cli" (public, auth "none"; redirect URIs: any http://127.0.0.1:ANY-PORT/ANY-PATH or
http://[::1]:PORT/PATH, RFC 8252 7.3) and "app" (confidential, secret "app-secret", basic or post;
also client_credentials). Scopes: openid profile email books:read books:write offline_access.
Paths:
  GET  /authorize                 no login page: approves as ada, 302 to redirect_uri with code,
                                  state and iss (RFC 9207). S256 PKCE is required of "cli"
                                  ("plain" refused). --deny: error=access_denied instead;
                                  --wrong-state: a state other than the one given
  POST /token                     authorization_code, refresh_token (rotated: each refresh issues a
                                  new refresh token and revokes the old; reuse: invalid_grant),
                                  urn:ietf:params:oauth:grant-type:device_code, client_credentials.
                                  id_token (RS256, kid in /jwks) when the scope has
                                  openid (code and device grants; not on refresh)
  POST /device_authorization      RFC 8628; expires_in --device-ttl, interval --interval
  GET  /device                    the verification_uri (a plain text page)
  POST /revoke                    RFC 7009, access or refresh token (a refresh token takes its
                                  access token with it)
  GET  /.well-known/openid-configuration, /.well-known/oauth-authorization-server, GET /jwks
  GET  /userinfo                  OpenID UserInfo (bearer token with openid scope)
  GET  /api/me                    {"sub": "user-ada", "scope": ..., "client_id": ...}; 401 with
                                  WWW-Authenticate for a missing, unknown, expired or revoked token
  POST /_test/approve_device      form user_code=...: ada approves; /_test/deny_device: denies
                                  (without user_code: the latest device authorization)
  GET  /_test/log                 JSON list of the requests to /authorize, /token,
                                  /device_authorization and /revoke, oldest first
Options: --access-ttl S (3600), --device-ttl S (600), --interval S (1; 0 allowed), --slow-down-step
S (5: RFC 8628 says a slow_down adds 5 s to the interval the client must keep), --slow-down-first N
(answer slow_down to the first N polls of each device code, whatever their pace), --no-refresh-token,
--deny, --wrong-state, --lifetime S (240).
"""

import argparse
import logging
import os
import sys
import threading
import time
import urllib.parse

from flask import Flask, jsonify, request
from joserfc.jwk import KeySet, RSAKey
from werkzeug.serving import make_server

from authlib.integrations.flask_oauth2 import AuthorizationServer, ResourceProtector
from authlib.oauth2 import OAuth2Error
from authlib.oauth2.rfc6749 import ClientMixin, InvalidRequestError, TokenMixin, grants, list_to_scope, scope_to_list
from authlib.oauth2.rfc6750 import BearerTokenValidator
from authlib.oauth2.rfc7009 import RevocationEndpoint
from authlib.oauth2.rfc7636 import CodeChallenge
from authlib.oauth2.rfc8628 import DeviceAuthorizationEndpoint, DeviceCodeGrant, DeviceCredentialDict
from authlib.oauth2.rfc9207 import IssuerParameter
from authlib.oidc.core import AuthorizationCodeMixin, OpenIDCode, OpenIDToken, UserInfo, UserInfoEndpoint
from authlib.oidc.discovery import OpenIDProviderMetadata

SCOPES = ["openid", "profile", "email", "books:read", "books:write", "offline_access"]
AUTH = ["client_secret_basic", "client_secret_post", "none"]
OPTS = None
ISSUER = ""
KEY = RSAKey.generate_key(2048, auto_kid=True)
LOCK = threading.RLock()  # one request at a time changes the stores (rotation is atomic)
CODES, TOKENS, DEVICES, USER_GRANTS, LAST_POLL, LOG, NONCES = {}, [], {}, {}, {}, [], set()
FORCED = {}  # polls answered per device code, for --slow-down-first


class User:
    def __init__(self, username, sub, name):
        self.username, self.sub, self.name = username, sub, name

    def get_user_id(self):
        return self.sub


ADA = User("ada", "user-ada", "Ada Lovelace")


def ada_info(scope):
    return UserInfo(sub=ADA.sub, name=ADA.name, preferred_username=ADA.username,
                    email="ada@example.com", email_verified=True).filter(scope)


class Client(ClientMixin):
    client_metadata = {}

    def __init__(self, client_id, secret, methods, grant_types):
        self.client_id, self.secret, self.methods, self.grant_types = client_id, secret, methods, grant_types

    def get_client_id(self):
        return self.client_id

    def get_default_redirect_uri(self):
        return None

    def get_allowed_scope(self, scope):
        return list_to_scope([s for s in scope_to_list(scope or "") if s in SCOPES])

    def check_redirect_uri(self, redirect_uri):
        # RFC 8252 7.3: a loopback redirect URI with any port (and here any path).
        u = urllib.parse.urlsplit(redirect_uri)
        return u.scheme == "http" and u.hostname in ("127.0.0.1", "::1") and not u.fragment

    def check_client_secret(self, client_secret):
        return self.secret is not None and client_secret == self.secret

    def check_endpoint_auth_method(self, method, endpoint):
        return method in self.methods

    def check_response_type(self, response_type):
        return response_type == "code"

    def check_grant_type(self, grant_type):
        return grant_type in self.grant_types


CLIENTS = {
    "cli": Client("cli", None, ["none"],
                  ["authorization_code", "refresh_token", DeviceCodeGrant.GRANT_TYPE]),
    "app": Client("app", "app-secret", ["client_secret_basic", "client_secret_post"],
                  ["authorization_code", "refresh_token", DeviceCodeGrant.GRANT_TYPE, "client_credentials"]),
}


class AuthCode(AuthorizationCodeMixin):
    def __init__(self, **kw):
        self.__dict__.update(kw)
        self.issued_at = time.time()

    def get_redirect_uri(self):
        return self.redirect_uri

    def get_scope(self):
        return self.scope

    def get_nonce(self):
        return self.nonce

    def get_auth_time(self):
        return int(self.issued_at)


class Token(TokenMixin):
    def __init__(self, client_id, user, data):
        self.client_id, self.user, self.data = client_id, user, data
        self.access_token, self.refresh_token = data["access_token"], data.get("refresh_token")
        self.scope, self.expires_in = data.get("scope", ""), data["expires_in"]
        self.issued_at, self.access_revoked, self.refresh_revoked = time.time(), False, False

    def check_client(self, client):
        return client.get_client_id() == self.client_id

    def get_scope(self):
        return self.scope

    def get_expires_in(self):
        return self.expires_in

    def is_expired(self):
        return time.time() >= self.issued_at + self.expires_in

    def is_revoked(self):
        return self.access_revoked

    def get_user(self):
        return self.user

    def get_client(self):
        return CLIENTS[self.client_id]


def save_token(data, req):
    TOKENS.append(Token(req.client.get_client_id(), req.user, data))


class PKCE(CodeChallenge):
    """Authlib's RFC 7636 extension, S256 only: "plain", or a challenge without a method (which
    RFC 7636 reads as plain), is refused, and a public client must send a challenge."""

    SUPPORTED_CODE_CHALLENGE_METHOD = ["S256"]

    def validate_code_challenge(self, grant, redirect_uri):
        data = grant.request.payload.data
        if data.get("code_challenge") and data.get("code_challenge_method") != "S256":
            raise InvalidRequestError("code_challenge_method must be S256")
        if not data.get("code_challenge") and grant.request.client.check_endpoint_auth_method("none", "token"):
            raise InvalidRequestError("Missing 'code_challenge': public clients must use PKCE (S256)")
        super().validate_code_challenge(grant, redirect_uri)


class Signing:
    """What Authlib's OpenID extensions ask of us: the key, the issuer, the user's claims."""

    def resolve_client_private_key(self, client):
        return KEY

    def get_client_algorithm(self, client):
        return "RS256"

    def get_encode_header(self, client):
        return {"alg": "RS256", "kid": KEY.kid}

    def get_client_claims(self, client):
        return {"iss": ISSUER}  # Authlib adds aud ([client_id]), iat, exp, auth_time, at_hash

    def generate_user_info(self, user, scope):
        return ada_info(scope)


class OpenIDForCode(Signing, OpenIDCode):
    def exists_nonce(self, nonce, req):
        return (req.payload.client_id, nonce) in NONCES  # a nonce is good for one authorization


class OpenIDForDevice(Signing, OpenIDToken):
    pass


class CodeGrant(grants.AuthorizationCodeGrant):
    TOKEN_ENDPOINT_AUTH_METHODS = AUTH

    def save_authorization_code(self, code, req):
        data = req.payload.data
        if data.get("nonce"):
            NONCES.add((req.client.get_client_id(), data["nonce"]))
        CODES[code] = AuthCode(code=code, client_id=req.client.get_client_id(), user=req.user,
                               redirect_uri=req.payload.redirect_uri, scope=req.scope or "",
                               nonce=data.get("nonce"), code_challenge=data.get("code_challenge"),
                               code_challenge_method=data.get("code_challenge_method"))

    def query_authorization_code(self, code, client):
        found = CODES.get(code)
        if found and found.client_id == client.get_client_id() and time.time() < found.issued_at + 600:
            return found

    def delete_authorization_code(self, authorization_code):
        CODES.pop(authorization_code.code, None)

    def authenticate_user(self, authorization_code):
        return authorization_code.user


class RefreshGrant(grants.RefreshTokenGrant):
    TOKEN_ENDPOINT_AUTH_METHODS = AUTH
    INCLUDE_NEW_REFRESH_TOKEN = True  # rotation: revoke_old_credential retires the one used

    def authenticate_refresh_token(self, refresh_token):
        return next((t for t in TOKENS if t.refresh_token == refresh_token and not t.refresh_revoked), None)

    def authenticate_user(self, credential):
        return credential.user

    def revoke_old_credential(self, credential):
        credential.refresh_revoked = True


class ClientCredentialsGrant(grants.ClientCredentialsGrant):
    TOKEN_ENDPOINT_AUTH_METHODS = ["client_secret_basic", "client_secret_post"]


class DeviceGrant(DeviceCodeGrant):
    def query_device_credential(self, device_code):
        return DEVICES.get(device_code)

    def query_user_grant(self, user_code):
        return USER_GRANTS.get(user_code)

    def should_slow_down(self, credential):
        now, code = time.monotonic(), credential["device_code"]
        last, LAST_POLL[code] = LAST_POLL.get(code), now
        FORCED[code] = FORCED.get(code, 0) + 1
        if FORCED[code] <= OPTS.slow_down_first or (last is not None and now - last < credential["interval"]):
            credential["interval"] += OPTS.slow_down_step
            return True
        return False

    def create_token_response(self):
        result = super().create_token_response()
        DEVICES.pop(self.request.credential["device_code"], None)  # a device code is good for one token
        return result


class DeviceEndpoint(DeviceAuthorizationEndpoint):
    def get_verification_uri(self):
        return ISSUER + "/device"

    def save_device_credential(self, client_id, scope, data):
        DEVICES[data["device_code"]] = DeviceCredentialDict(
            client_id=client_id, scope=scope, expires_at=time.time() + data["expires_in"], **data)


class Revocation(RevocationEndpoint):
    CLIENT_AUTH_METHODS = AUTH

    def query_token(self, token_string, token_type_hint):
        return next((t for t in TOKENS if token_string in (t.access_token, t.refresh_token)), None)

    def revoke_token(self, token, req):
        token.access_revoked = True
        if req.form["token"] == token.refresh_token:
            token.refresh_revoked = True


class Bearer(BearerTokenValidator):
    def authenticate_token(self, token_string):
        return next((t for t in TOKENS if t.access_token == token_string), None)


class UserInfoAt(UserInfoEndpoint):
    def get_issuer(self):
        return ISSUER

    def generate_user_info(self, user, scope):
        return ada_info(scope)

    def resolve_private_key(self):
        return KeySet([KEY])


app = Flask(__name__)
server = AuthorizationServer()
require_oauth = ResourceProtector()
require_oauth.register_token_validator(Bearer(realm="apx-test"))


class Issuer(IssuerParameter):
    def get_issuer(self):
        return ISSUER


def metadata():
    m = OpenIDProviderMetadata(
        issuer=ISSUER, authorization_endpoint=ISSUER + "/authorize", token_endpoint=ISSUER + "/token",
        device_authorization_endpoint=ISSUER + "/device_authorization", revocation_endpoint=ISSUER + "/revoke",
        userinfo_endpoint=ISSUER + "/userinfo", jwks_uri=ISSUER + "/jwks", scopes_supported=SCOPES,
        response_types_supported=["code"], response_modes_supported=["query"],
        grant_types_supported=["authorization_code", "refresh_token", DeviceCodeGrant.GRANT_TYPE,
                               "client_credentials"],
        token_endpoint_auth_methods_supported=AUTH, revocation_endpoint_auth_methods_supported=AUTH,
        code_challenge_methods_supported=["S256"], subject_types_supported=["public"],
        id_token_signing_alg_values_supported=["RS256"], authorization_response_iss_parameter_supported=True)
    m.validate()
    return m


@app.get("/.well-known/openid-configuration")
@app.get("/.well-known/oauth-authorization-server")
def discovery():
    return jsonify(metadata())


@app.get("/jwks")
def jwks():
    return jsonify(KeySet([KEY]).as_dict(private=False))


@app.get("/authorize")
def authorize():
    with LOCK:
        req = server.create_oauth2_request(None)
        try:
            grant = server.get_authorization_grant(req)
        except OAuth2Error as error:
            error.state = req.payload.state
            return server.handle_error_response(req, error)
        resp = server.create_authorization_response(req, grant_user=None if OPTS.deny else ADA, grant=grant)
    if OPTS.wrong_state and resp.location:
        u = urllib.parse.urlsplit(resp.location)
        query = [(k, v + "-not-yours" if k == "state" else v) for k, v in urllib.parse.parse_qsl(u.query)]
        resp.location = u._replace(query=urllib.parse.urlencode(query)).geturl()
    return resp


@app.post("/token")
def token():
    with LOCK:
        return server.create_token_response()


@app.post("/device_authorization")
def device_authorization():
    with LOCK:
        return server.create_endpoint_response(DeviceEndpoint.ENDPOINT_NAME)


@app.get("/device")
def device_page():
    return "Enter the code shown by your device (tests approve it with POST /_test/approve_device).\n"


@app.post("/revoke")
def revoke():
    with LOCK:
        return server.create_endpoint_response(Revocation.ENDPOINT_NAME)


@app.route("/userinfo", methods=["GET", "POST"])
def userinfo():
    return server.create_endpoint_response("userinfo")


@app.get("/api/me")
@require_oauth()
def me():
    tok = require_oauth.acquire_token()
    return jsonify(sub=tok.user.sub, scope=tok.scope, client_id=tok.client_id)


def decide_device(approved):
    code = request.form.get("user_code", "").strip().upper()
    with LOCK:
        if not code and DEVICES:  # no code given: the latest device authorization's
            code = list(DEVICES.values())[-1]["user_code"]
        if not any(d["user_code"] == code for d in DEVICES.values()):
            return jsonify(error="unknown user_code"), 404
        USER_GRANTS[code] = (ADA, approved)
    return jsonify(user_code=code, approved=approved)


@app.post("/_test/approve_device")
def approve_device():
    return decide_device(True)


@app.post("/_test/deny_device")
def deny_device():
    return decide_device(False)


@app.get("/_test/log")
def test_log():
    with LOCK:
        return jsonify(LOG)


@app.after_request
def log_request(resp):
    if request.path not in ("/authorize", "/token", "/device_authorization", "/revoke"):
        return resp
    form, basic = request.values, request.authorization
    body = resp.get_json(silent=True) if resp.is_json else None
    error = (body or {}).get("error")
    if resp.location:
        error = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(resp.location).query)).get("error")
    entry = {"at": time.time(), "path": request.path, "status": resp.status_code, "error": error,
             "grant_type": form.get("grant_type"),
             "client_id": basic.username if basic and basic.username else form.get("client_id"),
             "client_auth": "basic" if basic else "post" if "client_secret" in form else "none",
             "code_verifier": "code_verifier" in form, "code_challenge_method": form.get("code_challenge_method"),
             "state": form.get("state"), "redirect_uri": form.get("redirect_uri"), "scope": form.get("scope"),
             "refresh_token": form.get("refresh_token"), "device_code": form.get("device_code"),
             "token": form.get("token"), "token_type_hint": form.get("token_type_hint"),
             "issued_refresh_token": (body or {}).get("refresh_token"), "location": resp.location}
    with LOCK:
        LOG.append({k: v for k, v in entry.items() if v is not None and v is not False})
    return resp


def main():
    global OPTS, ISSUER
    parser = argparse.ArgumentParser()
    parser.add_argument("--lifetime", type=float, default=240)
    parser.add_argument("--access-ttl", type=int, default=3600)
    parser.add_argument("--device-ttl", type=int, default=600)
    parser.add_argument("--interval", type=int, default=1)
    parser.add_argument("--slow-down-step", type=int, default=5)
    parser.add_argument("--slow-down-first", type=int, default=0)
    parser.add_argument("--no-refresh-token", action="store_true")
    parser.add_argument("--deny", action="store_true")
    parser.add_argument("--wrong-state", action="store_true")
    OPTS = parser.parse_args()
    os.environ["AUTHLIB_INSECURE_TRANSPORT"] = "1"  # Authlib's metadata checks want https otherwise
    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    http = make_server("127.0.0.1", 0, app, threaded=True)
    ISSUER = f"http://127.0.0.1:{http.server_port}"

    ttl = {g: OPTS.access_ttl for g in ("authorization_code", "refresh_token", "client_credentials",
                                        DeviceCodeGrant.GRANT_TYPE)}
    app.config.update(OAUTH2_SCOPES_SUPPORTED=SCOPES, OAUTH2_TOKEN_EXPIRES_IN=ttl,
                      OAUTH2_REFRESH_TOKEN_GENERATOR=not OPTS.no_refresh_token)
    server.init_app(app, query_client=CLIENTS.get, save_token=save_token)
    server.register_grant(CodeGrant, [PKCE(required=True), OpenIDForCode(require_nonce=False)])
    server.register_grant(RefreshGrant)
    server.register_grant(DeviceGrant, [OpenIDForDevice()])
    server.register_grant(ClientCredentialsGrant)
    DeviceEndpoint.EXPIRES_IN, DeviceEndpoint.INTERVAL = OPTS.device_ttl, OPTS.interval
    server.register_endpoint(DeviceEndpoint)
    server.register_endpoint(Revocation)
    server.register_endpoint(UserInfoAt(resource_protector=require_oauth))
    server.register_extension(Issuer())
    metadata()  # Authlib checks the discovery document once at start

    def stop_when_stdin_closes():
        sys.stdin.read()
        http.shutdown()

    threading.Thread(target=stop_when_stdin_closes, daemon=True).start()
    deadline = threading.Timer(OPTS.lifetime, http.shutdown)
    deadline.daemon = True
    deadline.start()
    print(http.server_port, flush=True)
    http.serve_forever()


if __name__ == "__main__":
    main()
