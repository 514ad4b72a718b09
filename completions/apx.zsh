#compdef apx

__apx_complete() {
    local -ar non_empty_completions=("${@:#(|:*)}")
    local -ar empty_completions=("${(M)@:#(|:*)}")
    _describe -V '' non_empty_completions -- empty_completions -P $'\'\''
}

__apx_custom_complete() {
    local -a completions
    completions=("${(@f)"$("${command_name}" "${@}" "${command_line[@]}")"}")
    if [[ "${#completions[@]}" -gt 1 ]]; then
        __apx_complete "${completions[@]:0:-1}"
    fi
}

__apx_cursor_index_in_current_word() {
    if [[ -z "${QIPREFIX}${IPREFIX}${PREFIX}" ]]; then
        printf 0
    else
        printf %s "${#${(z)LBUFFER}[-1]}"
    fi
}

_apx() {
    emulate -RL zsh -G
    setopt extendedglob nullglob numericglobsort
    unsetopt aliases banghist

    local -xr SAP_SHELL=zsh
    local -x SAP_SHELL_VERSION
    SAP_SHELL_VERSION="$(builtin emulate zsh -c 'printf %s "${ZSH_VERSION}"')"
    local -r SAP_SHELL_VERSION

    local context state state_descr line
    local -A opt_args

    local -r command_name="${words[1]}"
    local -ar command_line=("${words[@]}")
    local -ir current_word_index="$((CURRENT - 1))"

    local -i ret=1
    local -ar arg_specs=(
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
        '(-): :->command'
        '(-)*:: :->arg'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0
    case "${state}" in
    command)
        local -ar subcommands=(
            'call:Call a registry endpoint, or any URL, and print the result as JSON.'
            'list:List the registry'\''s APIs, or one API'\''s endpoints.'
            'describe:Show an endpoint'\''s parameters and an example call, as JSON.'
            'validate:Check registry files; print file:line:column errors and exit 3 when any is invalid.'
            'import:Write a registry file from an OpenAPI/Swagger description or a gRPC schema.'
            'demo:Run the embedded demo backend (books, gifs, classnotes gRPC) on 127.0.0.1 until Ctrl-C.'
            'mock:Serve registry APIs (or an OpenAPI description) as a fake backend on 127.0.0.1 until Ctrl-C.'
            'completions:Print a shell completion script (bash, zsh or fish).'
            'manual:Print apx'\''s man page (roff) built from every command'\''s help.'
            'config:Show the effective settings and where each comes from (flag, environment, config file, default).'
            'auth:Log in and manage stored tokens (OAuth2 user login, client credentials, token commands).'
            'run:Run a recipe: chained calls with their data flowing forward; prints the recipe'\''s output as JSON.'
            'session:Manage cookie sessions (the jars `apx call --session NAME` and `apx run --session NAME` keep).'
            'help:Show subcommand help information.'
        )
        _describe -V subcommand subcommands && ret=0
        ;;
    arg)
        case "${words[1]}" in
        call|list|describe|validate|import|demo|mock|completions|manual|config|auth|run|session|help)
            "_apx_${words[1]}" && ret=0
            ;;
        esac
        ;;
    esac

    return "${ret}"
}

_apx_call() {
    local -i ret=1
    local -ar ___output=('json' 'ndjson' 'raw' 'table')
    local -ar ___color=('auto' 'always' 'never')
    local -ar arg_specs=(
        '*--registry[A folder of registry files, or one API.json file (repeatable; default ./Endpoints, then ~/.config/apx/endpoints; env APX_REGISTRY).]:DIR|FILE:_files -g '\''*.json'\'''
        '--env[The registry environment to call (else APX_ENV when the API has it, else the config file'\''s, else the API'\''s default_environment).]:NAME:{__apx_custom_complete ---completion call -- --env "${current_word_index}" "$(__apx_cursor_index_in_current_word)"}'
        '--base-url[Call this base URL instead of the environment'\''s.]:URL:'
        '--demo[Start the embedded demo backend on a free loopback port and point this run at it.]'
        '(-o --output)'{-o,--output}'[Output format\: json, ndjson, raw or table (default\: json for bodies, ndjson for streams).]:FORMAT:{__apx_complete "${___output[@]}"}'
        '--select[Print only the values at this jq-style path, e.g. .data.items\[\].id]:PATH:'
        '(-r --raw-output)'{-r,--raw-output}'[Print string results as their text, without JSON quotes (like jq -r).]'
        '--color[Colour\: auto, always or never (auto honours NO_COLOR).]:WHEN:{__apx_complete "${___color[@]}"}'
        '*'{-H,--header}'[Add a header, '\''Name\: value'\'' (repeatable; '\''Name\:'\'' removes one).]:HEADER:'
        '--timeout[Give up after this many seconds (all attempts together; also bounds token requests and commands).]:SECONDS:'
        '--connect-timeout[Give up connecting after this many seconds.]:SECONDS:'
        '--retry[Maximum attempts for retryable failures (overrides the registry).]:N:'
        '--no-retry[Never retry.]'
        '(-v --verbose)'{-v,--verbose}'[Print requests, responses and retries to stderr (secrets masked).]'
        '--insecure[Skip TLS certificate verification (prints a warning).]'
        '--cacert[Trust the CA certificates in this PEM file (and SSL_CERT_FILE/SSL_CERT_DIR'\''s) instead of the system store.]:FILE:'
        '--cert[Mutual TLS\: the client certificate chain (PEM); https and grpcs only.]:FILE:'
        '--key[Mutual TLS\: the client certificate'\''s private key (PEM).]:FILE:'
        '--http1.1[Use HTTP/1.1 only (else HTTP/2 when a TLS server offers it).]'
        '--proxy[Go through this proxy\: http\://\[USER\:PASSWORD@\]HOST\:PORT or socks5\://HOST\:PORT (default\: HTTPS_PROXY, HTTP_PROXY, ALL_PROXY; "" for none).]:URL:'
        '--noproxy[Hosts to reach directly, comma-separated\: names (and names under them), IP addresses, CIDR ranges, or * (default\: NO_PROXY).]:LIST:'
        '--authority[gRPC\: send this \:authority (and TLS server name) instead of the host.]:HOST\[\:PORT\]:'
        '--max-message-size[gRPC and WebSocket\: the largest message sent or received, in bytes (default 4 MiB for gRPC, 16 MiB for WebSocket; a larger WebSocket message exits 9).]:BYTES:'
        '--emit-defaults[gRPC\: print fields that hold their default value (0, "", \[\], false).]'
        ':API.ENDPOINT | \[METHOD\] URL:{__apx_custom_complete ---completion call -- positional@0 "${current_word_index}" "$(__apx_cursor_index_in_current_word)"}'
        '*:ITEM:{__apx_custom_complete ---completion call -- positional@1 "${current_word_index}" "$(__apx_cursor_index_in_current_word)"}'
        '(-d --data)'{-d,--data}'[The request body\: JSON text, @file or @- for stdin (streamed\: upload progress on a terminal).]:BODY:{__apx_custom_complete ---completion call -- --data "${current_word_index}" "$(__apx_cursor_index_in_current_word)"}'
        '(-X --request)'{-X,--request}'[The HTTP method of a call to a URL, as curl'\''s and xh'\''s -X (the same as a METHOD before the URL).]:METHOD:'
        '--form[Send body items as a form (multipart/form-data when there is a file part).]'
        '--token-stdin[Read a bearer token from stdin and use it instead of the registry'\''s auth.]'
        '(-a --auth)'{-a,--auth}'[Basic auth, instead of the registry'\''s.]:USER\:PASSWORD:'
        '--bearer[A bearer token, instead of the registry'\''s auth.]:TOKEN:'
        '--no-auth[Send no credentials from the registry.]'
        '--max-events[Stop a stream (SSE events, gRPC messages, NDJSON lines) after N items.]:N:'
        '--sse[Follow the URL as a server-sent-events stream (reconnecting with Last-Event-ID), one JSON object per event, whatever the answer'\''s type (a text/event-stream answer is followed without --sse).]'
        '*--until-event[Stop an event stream successfully after an event of this type (repeatable; a REST answer that is not text/event-stream is then a usage error).]:NAME:'
        '--all[Follow the endpoint'\''s pages (its registry pagination) and print every item as a stream, one JSON value per line; --select applies to each item.]'
        '--max-items[With --all\: stop after N items (no further page is fetched).]:N:'
        '--max-pages[With --all\: the page cap (default\: the registry'\''s max_pages, else 1000); more pages than this is an error.]:N:'
        '--save[URL\: once the call succeeds, save it in the registry as this endpoint (values become defaults).]:API.ENDPOINT:'
        '(-O --output-file)'{-O,--output-file}'[Write the body (or stream items) to FILE instead of stdout\: as received unless -o or --select says otherwise, replacing FILE only once the call succeeds; progress on a terminal.]:FILE:'
        '--continue[With -O\: keep a failed or interrupted download and resume it on the next --continue (Range and If-Range); a FILE another tool left half-written is resumed from its size; a server that sends the whole file again starts it over.]'
        '(-i --include)'{-i,--include}'[Print the answer'\''s status line and headers (credentials masked) on stdout before its body, as curl -i does.]'
        '--dry-run[Print the resolved request as JSON (method, URL, headers, body; gRPC\: target, method, metadata, message) and send nothing.]'
        '--curl[Print an equivalent curl command line (gRPC\: grpcurl) and send nothing.]'
        '--show-secrets[With --dry-run or --curl\: show tokens, keys and passwords instead of *** (for copy and paste).]'
        '*--subprotocol[WebSocket\: offer this subprotocol in the handshake (repeatable; name.TOKEN masks TOKEN).]:NAME:'
        '--max-messages[WebSocket, GraphQL subscription\: stop after N received messages.]:N:'
        '--until[WebSocket, GraphQL subscription\: stop after the first message whose value at PATH equals VALUE (JSON when it parses, else text), e.g. --until '\''.type==complete'\''.]:PATH==VALUE:'
        '--reconnect-delay[WebSocket, SSE, GraphQL subscription\: seconds before the first reconnect; each later wait doubles, up to 30 (or SECONDS when longer). Default\: the endpoint'\''s reconnect delays, else 5, 10, 20, 30.]:SECONDS:'
        '--graphql[URL\: send this GraphQL document (text, or @file.graphql) as a GraphQL POST; items are its variables.]:DOCUMENT:'
        '--operation[GraphQL\: the operation to run when the document holds several.]:NAME:'
        '--allow-partial[GraphQL\: accept data that came with errors (the errors go to stderr; exit 0, not 12).]'
        '--raw-response[GraphQL\: print the whole answer (data, errors, extensions) rather than its data.]'
        '--graphql-transport[GraphQL subscription\: carry it over ws (graphql-transport-ws, the default) or sse (GraphQL over SSE).]:ws|sse:'
        '--max-document-size[GraphQL\: the largest document parsed, in bytes (default 1048576; at most 268435456).]:BYTES:'
        '*--proto[gRPC URL\: take the schema from this .proto file, compiled with protoc (repeatable).]:FILE:'
        '*--import-path[gRPC URL\: a folder protoc searches for --proto files and their imports (repeatable).]:DIR:'
        '--protoset[gRPC URL\: take the schema from this FileDescriptorSet (default\: server reflection).]:FILE:'
        '--session[Keep the cookies servers set in the session NAME (a 0600 file in the state folder) and send them back on later calls with the same --session; see `apx session`.]:NAME:'
        '--har[Write every exchange (redirects, retries, token requests and pages included) to FILE as an HTTP Archive (HAR 1.2), secrets masked as -v masks them; written when the command ends, success or not.]:FILE:_files -g '\''*.har'\'''
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_apx_list() {
    local -i ret=1
    local -ar ___output=('json' 'ndjson' 'raw' 'table')
    local -ar ___color=('auto' 'always' 'never')
    local -ar arg_specs=(
        '*--registry[A folder of registry files, or one API.json file (repeatable; default ./Endpoints, then ~/.config/apx/endpoints; env APX_REGISTRY).]:DIR|FILE:_files -g '\''*.json'\'''
        '--env[The registry environment to call (else APX_ENV when the API has it, else the config file'\''s, else the API'\''s default_environment).]:NAME:{__apx_custom_complete ---completion list -- --env "${current_word_index}" "$(__apx_cursor_index_in_current_word)"}'
        '--base-url[Call this base URL instead of the environment'\''s.]:URL:'
        '--demo[Start the embedded demo backend on a free loopback port and point this run at it.]'
        '(-o --output)'{-o,--output}'[Output format\: json, ndjson, raw or table (default\: json for bodies, ndjson for streams).]:FORMAT:{__apx_complete "${___output[@]}"}'
        '--select[Print only the values at this jq-style path, e.g. .data.items\[\].id]:PATH:'
        '(-r --raw-output)'{-r,--raw-output}'[Print string results as their text, without JSON quotes (like jq -r).]'
        '--color[Colour\: auto, always or never (auto honours NO_COLOR).]:WHEN:{__apx_complete "${___color[@]}"}'
        '*'{-H,--header}'[Add a header, '\''Name\: value'\'' (repeatable; '\''Name\:'\'' removes one).]:HEADER:'
        '--timeout[Give up after this many seconds (all attempts together; also bounds token requests and commands).]:SECONDS:'
        '--connect-timeout[Give up connecting after this many seconds.]:SECONDS:'
        '--retry[Maximum attempts for retryable failures (overrides the registry).]:N:'
        '--no-retry[Never retry.]'
        '(-v --verbose)'{-v,--verbose}'[Print requests, responses and retries to stderr (secrets masked).]'
        '--insecure[Skip TLS certificate verification (prints a warning).]'
        '--cacert[Trust the CA certificates in this PEM file (and SSL_CERT_FILE/SSL_CERT_DIR'\''s) instead of the system store.]:FILE:'
        '--cert[Mutual TLS\: the client certificate chain (PEM); https and grpcs only.]:FILE:'
        '--key[Mutual TLS\: the client certificate'\''s private key (PEM).]:FILE:'
        '--http1.1[Use HTTP/1.1 only (else HTTP/2 when a TLS server offers it).]'
        '--proxy[Go through this proxy\: http\://\[USER\:PASSWORD@\]HOST\:PORT or socks5\://HOST\:PORT (default\: HTTPS_PROXY, HTTP_PROXY, ALL_PROXY; "" for none).]:URL:'
        '--noproxy[Hosts to reach directly, comma-separated\: names (and names under them), IP addresses, CIDR ranges, or * (default\: NO_PROXY).]:LIST:'
        '--authority[gRPC\: send this \:authority (and TLS server name) instead of the host.]:HOST\[\:PORT\]:'
        '--max-message-size[gRPC and WebSocket\: the largest message sent or received, in bytes (default 4 MiB for gRPC, 16 MiB for WebSocket; a larger WebSocket message exits 9).]:BYTES:'
        '--emit-defaults[gRPC\: print fields that hold their default value (0, "", \[\], false).]'
        ':API | GRPC-URL | URL:{__apx_custom_complete ---completion list -- positional@0 "${current_word_index}" "$(__apx_cursor_index_in_current_word)"}'
        '--grpc[List the services and methods a gRPC server offers over reflection, without a registry entry (HOST\:PORT or grpc\://HOST\:PORT plaintext, grpcs\://HOST\:PORT TLS).]:ADDRESS:'
        '*--proto[gRPC URL\: take the schema from this .proto file, compiled with protoc (repeatable).]:FILE:'
        '*--import-path[gRPC URL\: a folder protoc searches for --proto files and their imports (repeatable).]:DIR:'
        '--protoset[gRPC URL\: take the schema from this FileDescriptorSet (default\: server reflection).]:FILE:'
        '--graphql[URL is a GraphQL server (http(s)\://HOST/PATH)\: list its root fields (queries, mutations, subscriptions) with their arguments, by introspection or from --schema FILE.]'
        '--schema[GraphQL\: read the schema from this file (.graphql SDL, or an introspection result as .json) instead of asking the server.]:FILE:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_apx_describe() {
    local -i ret=1
    local -ar ___output=('json' 'ndjson' 'raw' 'table')
    local -ar ___color=('auto' 'always' 'never')
    local -ar arg_specs=(
        '*--registry[A folder of registry files, or one API.json file (repeatable; default ./Endpoints, then ~/.config/apx/endpoints; env APX_REGISTRY).]:DIR|FILE:_files -g '\''*.json'\'''
        '--env[The registry environment to call (else APX_ENV when the API has it, else the config file'\''s, else the API'\''s default_environment).]:NAME:{__apx_custom_complete ---completion describe -- --env "${current_word_index}" "$(__apx_cursor_index_in_current_word)"}'
        '--base-url[Call this base URL instead of the environment'\''s.]:URL:'
        '--demo[Start the embedded demo backend on a free loopback port and point this run at it.]'
        '(-o --output)'{-o,--output}'[Output format\: json, ndjson, raw or table (default\: json for bodies, ndjson for streams).]:FORMAT:{__apx_complete "${___output[@]}"}'
        '--select[Print only the values at this jq-style path, e.g. .data.items\[\].id]:PATH:'
        '(-r --raw-output)'{-r,--raw-output}'[Print string results as their text, without JSON quotes (like jq -r).]'
        '--color[Colour\: auto, always or never (auto honours NO_COLOR).]:WHEN:{__apx_complete "${___color[@]}"}'
        '*'{-H,--header}'[Add a header, '\''Name\: value'\'' (repeatable; '\''Name\:'\'' removes one).]:HEADER:'
        '--timeout[Give up after this many seconds (all attempts together; also bounds token requests and commands).]:SECONDS:'
        '--connect-timeout[Give up connecting after this many seconds.]:SECONDS:'
        '--retry[Maximum attempts for retryable failures (overrides the registry).]:N:'
        '--no-retry[Never retry.]'
        '(-v --verbose)'{-v,--verbose}'[Print requests, responses and retries to stderr (secrets masked).]'
        '--insecure[Skip TLS certificate verification (prints a warning).]'
        '--cacert[Trust the CA certificates in this PEM file (and SSL_CERT_FILE/SSL_CERT_DIR'\''s) instead of the system store.]:FILE:'
        '--cert[Mutual TLS\: the client certificate chain (PEM); https and grpcs only.]:FILE:'
        '--key[Mutual TLS\: the client certificate'\''s private key (PEM).]:FILE:'
        '--http1.1[Use HTTP/1.1 only (else HTTP/2 when a TLS server offers it).]'
        '--proxy[Go through this proxy\: http\://\[USER\:PASSWORD@\]HOST\:PORT or socks5\://HOST\:PORT (default\: HTTPS_PROXY, HTTP_PROXY, ALL_PROXY; "" for none).]:URL:'
        '--noproxy[Hosts to reach directly, comma-separated\: names (and names under them), IP addresses, CIDR ranges, or * (default\: NO_PROXY).]:LIST:'
        '--authority[gRPC\: send this \:authority (and TLS server name) instead of the host.]:HOST\[\:PORT\]:'
        '--max-message-size[gRPC and WebSocket\: the largest message sent or received, in bytes (default 4 MiB for gRPC, 16 MiB for WebSocket; a larger WebSocket message exits 9).]:BYTES:'
        '--emit-defaults[gRPC\: print fields that hold their default value (0, "", \[\], false).]'
        ':API.ENDPOINT | GRPC-URL:{__apx_custom_complete ---completion describe -- positional@0 "${current_word_index}" "$(__apx_cursor_index_in_current_word)"}'
        '*--proto[gRPC URL\: take the schema from this .proto file, compiled with protoc (repeatable).]:FILE:'
        '*--import-path[gRPC URL\: a folder protoc searches for --proto files and their imports (repeatable).]:DIR:'
        '--protoset[gRPC URL\: take the schema from this FileDescriptorSet (default\: server reflection).]:FILE:'
        '--graphql[The target is a GraphQL server'\''s URL\: describe this field (Type.field, e.g. Query.book) or type (TypeName), by introspection or from --schema FILE.]:NAME:'
        '--schema[GraphQL\: read the schema from this file (.graphql SDL, or an introspection result as .json) instead of asking the server.]:FILE:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_apx_validate() {
    local -i ret=1
    local -ar ___output=('json' 'ndjson' 'raw' 'table')
    local -ar ___color=('auto' 'always' 'never')
    local -ar arg_specs=(
        '*--registry[A folder of registry files, or one API.json file (repeatable; default ./Endpoints, then ~/.config/apx/endpoints; env APX_REGISTRY).]:DIR|FILE:_files -g '\''*.json'\'''
        '(-o --output)'{-o,--output}'[Output format\: json, ndjson, raw or table (default\: json for bodies, ndjson for streams).]:FORMAT:{__apx_complete "${___output[@]}"}'
        '--select[Print only the values at this jq-style path, e.g. .data.items\[\].id]:PATH:'
        '(-r --raw-output)'{-r,--raw-output}'[Print string results as their text, without JSON quotes (like jq -r).]'
        '--color[Colour\: auto, always or never (auto honours NO_COLOR).]:WHEN:{__apx_complete "${___color[@]}"}'
        '*:PATH:_files -g '\''*.json'\'''
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_apx_import() {
    local -i ret=1
    local -ar arg_specs=(
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
        '(-): :->command'
        '(-)*:: :->arg'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0
    case "${state}" in
    command)
        local -ar subcommands=(
            'openapi:Import an OpenAPI 3.0/3.1/3.2 or Swagger 2.0 description (JSON or YAML file, or http(s) URL).'
            'grpc:Import the services of a gRPC server (reflection), a .proto file or a .protoset.'
            'graphql:Import a GraphQL server'\''s root fields (introspection), or those of a schema file (SDL or introspection JSON).'
        )
        _describe -V subcommand subcommands && ret=0
        ;;
    arg)
        case "${words[1]}" in
        openapi|grpc|graphql)
            "_apx_import_${words[1]}" && ret=0
            ;;
        esac
        ;;
    esac

    return "${ret}"
}

_apx_import_openapi() {
    local -i ret=1
    local -ar arg_specs=(
        ':SOURCE:_files -g '\''*.json *.yaml *.yml *.gz'\'''
        '--api[The API name (letters, digits, '\''-'\'', '\''_'\'')\: the file is NAME.json and calls are `apx call NAME.ENDPOINT` (default\: from the description'\''s info.title, or the gRPC package, else the service).]:NAME:'
        '--out[The folder to write NAME.json into.]:DIR:_files -/'
        '--force[Replace NAME.json when it exists with different content.]'
        '--allow-remote-refs[Follow $refs into http(s) URLs from a local file (a description fetched from a URL always may).]'
        '--timeout[Give up fetching after this many seconds (default\: 30, or 10 for reflection).]:SECONDS:'
        '--insecure[Skip TLS certificate verification of the server fetched from (prints a warning).]'
        '--cacert[Trust the CA certificates in this PEM file for the server fetched from.]:FILE:'
        '--proxy[Go through this proxy\: http\://\[USER\:PASSWORD@\]HOST\:PORT or socks5\://HOST\:PORT (default\: HTTPS_PROXY, HTTP_PROXY, ALL_PROXY; "" for none).]:URL:'
        '--noproxy[Hosts to reach directly, comma-separated\: names (and names under them), IP addresses, CIDR ranges, or * (default\: NO_PROXY).]:LIST:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_apx_import_grpc() {
    local -i ret=1
    local -ar arg_specs=(
        ':TARGET:'
        '--api[The API name (letters, digits, '\''-'\'', '\''_'\'')\: the file is NAME.json and calls are `apx call NAME.ENDPOINT` (default\: from the description'\''s info.title, or the gRPC package, else the service).]:NAME:'
        '--out[The folder to write NAME.json into.]:DIR:_files -/'
        '--force[Replace NAME.json when it exists with different content.]'
        '*'{-I,--import-path}'[With a .proto TARGET\: a folder protoc searches for imports (repeatable).]:DIR:_files -/'
        '--timeout[Give up fetching after this many seconds (default\: 30, or 10 for reflection).]:SECONDS:'
        '--insecure[Skip TLS certificate verification of the server fetched from (prints a warning).]'
        '--cacert[Trust the CA certificates in this PEM file for the server fetched from.]:FILE:'
        '--proxy[Go through this proxy\: http\://\[USER\:PASSWORD@\]HOST\:PORT or socks5\://HOST\:PORT (default\: HTTPS_PROXY, HTTP_PROXY, ALL_PROXY; "" for none).]:URL:'
        '--noproxy[Hosts to reach directly, comma-separated\: names (and names under them), IP addresses, CIDR ranges, or * (default\: NO_PROXY).]:LIST:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_apx_import_graphql() {
    local -i ret=1
    local -ar arg_specs=(
        ':URL | FILE:'
        '--api[The API name (letters, digits, '\''-'\'', '\''_'\'')\: the file is NAME.json and calls are `apx call NAME.ENDPOINT` (default\: from the description'\''s info.title, or the gRPC package, else the service).]:NAME:'
        '--out[The folder to write NAME.json into.]:DIR:_files -/'
        '--force[Replace NAME.json when it exists with different content.]'
        '--depth[Levels of the generated selection sets (1 to 10).]:N:'
        '*'{-H,--header}'[URL\: a header for the introspection request, e.g. '\''Authorization\: Bearer TOKEN'\'' (repeatable).]:NAME\: VALUE:'
        '--timeout[Give up fetching after this many seconds (default\: 30, or 10 for reflection).]:SECONDS:'
        '--insecure[Skip TLS certificate verification of the server fetched from (prints a warning).]'
        '--cacert[Trust the CA certificates in this PEM file for the server fetched from.]:FILE:'
        '--proxy[Go through this proxy\: http\://\[USER\:PASSWORD@\]HOST\:PORT or socks5\://HOST\:PORT (default\: HTTPS_PROXY, HTTP_PROXY, ALL_PROXY; "" for none).]:URL:'
        '--noproxy[Hosts to reach directly, comma-separated\: names (and names under them), IP addresses, CIDR ranges, or * (default\: NO_PROXY).]:LIST:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_apx_demo() {
    local -i ret=1
    local -ar arg_specs=(
        '--port[HTTP port (0 picks a free one).]:N:'
        '--grpc-port[gRPC port (0 picks a free one).]:N:'
        '--token-lifetime[Lifetime of issued OAuth tokens in seconds.]:SECONDS:'
        '--grpc-tls-cert[Serve gRPC over TLS with this PEM certificate chain.]:FILE:'
        '--grpc-tls-key[PEM private key of --grpc-tls-cert.]:FILE:'
        '--grpc-client-ca[Require gRPC client certificates signed by this PEM CA (mutual TLS).]:FILE:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_apx_mock() {
    local -i ret=1
    local -ar arg_specs=(
        '*--registry[A folder of registry files, or one API.json file (repeatable; default ./Endpoints, then ~/.config/apx/endpoints; env APX_REGISTRY).]:DIR|FILE:_files -g '\''*.json'\'''
        '*:API:{__apx_custom_complete ---completion mock -- positional@0 "${current_word_index}" "$(__apx_cursor_index_in_current_word)"}'
        '--openapi[Serve this OpenAPI/Swagger description (a .json/.yaml file or an http(s) URL) without importing it.]:FILE|URL:_files -g '\''*.json *.yaml *.yml *.gz'\'''
        '--allow-remote-refs[--openapi FILE\: follow $refs into http(s) URLs (a description fetched from a URL always may).]'
        '*--replay[Answer with the exchanges of this HTTP archive, or of every *.har in a folder (repeatable).]:FILE.har|DIR:_files -g '\''*.har'\'''
        '--full-speed[--replay\: send recorded event streams at once, not spaced as they were recorded.]'
        '--record[Forward every request to --upstream and record each exchange into an HTTP archive in this folder.]:DIR:_files -/'
        '--upstream[--record\: the server to forward to (an http\:// or https\:// URL).]:URL:'
        '--grpc-upstream[--record\: the gRPC server to forward --grpc-port'\''s calls to (grpc\:// or grpcs\://; needs its reflection).]:URL:'
        '--timeout[Give up fetching after this many seconds (default\: 30, or 10 for reflection).]:SECONDS:'
        '--insecure[Skip TLS certificate verification of the server fetched from (prints a warning).]'
        '--cacert[Trust the CA certificates in this PEM file for the server fetched from.]:FILE:'
        '--proxy[Go through this proxy\: http\://\[USER\:PASSWORD@\]HOST\:PORT or socks5\://HOST\:PORT (default\: HTTPS_PROXY, HTTP_PROXY, ALL_PROXY; "" for none).]:URL:'
        '--noproxy[Hosts to reach directly, comma-separated\: names (and names under them), IP addresses, CIDR ranges, or * (default\: NO_PROXY).]:LIST:'
        '--port[Port of the first API (0 picks free ones).]:N:'
        '--grpc-port[Port of the gRPC server that answers every gRPC endpoint'\''s methods (0 picks a free one).]:N:'
        '--host[Address to listen on (0.0.0.0 for every interface).]:H:'
        '--seed[Seed of generated answers\: the same seed gives the same answers.]:N:'
        '--latency[Delay every answer by MS milliseconds, plus up to RANDMS more.]:MS\[+RANDMS\]:'
        '--fail-rate[Fail this fraction of requests (0 to 1) with --fail-status.]:P:'
        '--fail-status[Status of injected failures, sent with Retry-After\: 1.]:N:'
        '--drop-every[Cut SSE streams and WebSocket connections after every N events or messages (clients resume).]:N:'
        '--drop-mode[How --drop-every drops a stream\: close (its end is sent) or abort (the connection is cut mid-body).]:close|abort:'
        '--sse-events[Events (SSE) or messages (WebSocket) an endpoint without examples sends.]:N:'
        '--token-lifetime[Seconds the OAuth2 access tokens of the mocked token endpoints stay good.]:SECONDS:'
        '--max-generated-size[The most one generated answer may take, in bytes of JSON; a schema asking for more is answered 500.]:BYTES:'
        '--stateful[Keep what POST/PUT/PATCH/DELETE write to collections, so a created resource can be read back.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_apx_completions() {
    local -i ret=1
    local -ar arg_specs=(
        ':SHELL:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_apx_manual() {
    local -i ret=1
    local -ar arg_specs=(
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_apx_config() {
    local -i ret=1
    local -ar ___output=('json' 'ndjson' 'raw' 'table')
    local -ar ___color=('auto' 'always' 'never')
    local -ar arg_specs=(
        '*--registry[A folder of registry files, or one API.json file (repeatable; default ./Endpoints, then ~/.config/apx/endpoints; env APX_REGISTRY).]:DIR|FILE:_files -g '\''*.json'\'''
        '--env[The registry environment to call (else APX_ENV when the API has it, else the config file'\''s, else the API'\''s default_environment).]:NAME:{__apx_custom_complete ---completion config -- --env "${current_word_index}" "$(__apx_cursor_index_in_current_word)"}'
        '--base-url[Call this base URL instead of the environment'\''s.]:URL:'
        '--demo[Start the embedded demo backend on a free loopback port and point this run at it.]'
        '(-o --output)'{-o,--output}'[Output format\: json, ndjson, raw or table (default\: json for bodies, ndjson for streams).]:FORMAT:{__apx_complete "${___output[@]}"}'
        '--select[Print only the values at this jq-style path, e.g. .data.items\[\].id]:PATH:'
        '(-r --raw-output)'{-r,--raw-output}'[Print string results as their text, without JSON quotes (like jq -r).]'
        '--color[Colour\: auto, always or never (auto honours NO_COLOR).]:WHEN:{__apx_complete "${___color[@]}"}'
        '*'{-H,--header}'[Add a header, '\''Name\: value'\'' (repeatable; '\''Name\:'\'' removes one).]:HEADER:'
        '--timeout[Give up after this many seconds (all attempts together; also bounds token requests and commands).]:SECONDS:'
        '--connect-timeout[Give up connecting after this many seconds.]:SECONDS:'
        '--retry[Maximum attempts for retryable failures (overrides the registry).]:N:'
        '--no-retry[Never retry.]'
        '(-v --verbose)'{-v,--verbose}'[Print requests, responses and retries to stderr (secrets masked).]'
        '--insecure[Skip TLS certificate verification (prints a warning).]'
        '--cacert[Trust the CA certificates in this PEM file (and SSL_CERT_FILE/SSL_CERT_DIR'\''s) instead of the system store.]:FILE:'
        '--cert[Mutual TLS\: the client certificate chain (PEM); https and grpcs only.]:FILE:'
        '--key[Mutual TLS\: the client certificate'\''s private key (PEM).]:FILE:'
        '--http1.1[Use HTTP/1.1 only (else HTTP/2 when a TLS server offers it).]'
        '--proxy[Go through this proxy\: http\://\[USER\:PASSWORD@\]HOST\:PORT or socks5\://HOST\:PORT (default\: HTTPS_PROXY, HTTP_PROXY, ALL_PROXY; "" for none).]:URL:'
        '--noproxy[Hosts to reach directly, comma-separated\: names (and names under them), IP addresses, CIDR ranges, or * (default\: NO_PROXY).]:LIST:'
        '--authority[gRPC\: send this \:authority (and TLS server name) instead of the host.]:HOST\[\:PORT\]:'
        '--max-message-size[gRPC and WebSocket\: the largest message sent or received, in bytes (default 4 MiB for gRPC, 16 MiB for WebSocket; a larger WebSocket message exits 9).]:BYTES:'
        '--emit-defaults[gRPC\: print fields that hold their default value (0, "", \[\], false).]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_apx_auth() {
    local -i ret=1
    local -ar arg_specs=(
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
        '(-): :->command'
        '(-)*:: :->arg'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0
    case "${state}" in
    command)
        local -ar subcommands=(
            'login:Get a new token for an API now and store it (prints a summary, not the token).'
            'status:Show stored tokens: API, environment, type, expiry (never the token).'
            'token:Print a valid token for an API (refreshed if needed): the one command that shows a token.'
            'logout:Delete the stored token of an API (in --env, or its default environment).'
            'set-secret:Store a secret read from stdin (a client secret, an API key) for registries to use as ${keychain:NAME}.'
            'delete-secret:Delete a secret stored with apx auth set-secret.'
        )
        _describe -V subcommand subcommands && ret=0
        ;;
    arg)
        case "${words[1]}" in
        login|status|token|logout|set-secret|delete-secret)
            "_apx_auth_${words[1]}" && ret=0
            ;;
        esac
        ;;
    esac

    return "${ret}"
}

_apx_auth_login() {
    local -i ret=1
    local -ar ___output=('json' 'ndjson' 'raw' 'table')
    local -ar ___color=('auto' 'always' 'never')
    local -ar arg_specs=(
        '*--registry[A folder of registry files, or one API.json file (repeatable; default ./Endpoints, then ~/.config/apx/endpoints; env APX_REGISTRY).]:DIR|FILE:_files -g '\''*.json'\'''
        '--env[The registry environment to call (else APX_ENV when the API has it, else the config file'\''s, else the API'\''s default_environment).]:NAME:{__apx_custom_complete ---completion auth login -- --env "${current_word_index}" "$(__apx_cursor_index_in_current_word)"}'
        '--base-url[Call this base URL instead of the environment'\''s.]:URL:'
        '--demo[Start the embedded demo backend on a free loopback port and point this run at it.]'
        '(-o --output)'{-o,--output}'[Output format\: json, ndjson, raw or table (default\: json for bodies, ndjson for streams).]:FORMAT:{__apx_complete "${___output[@]}"}'
        '--select[Print only the values at this jq-style path, e.g. .data.items\[\].id]:PATH:'
        '(-r --raw-output)'{-r,--raw-output}'[Print string results as their text, without JSON quotes (like jq -r).]'
        '--color[Colour\: auto, always or never (auto honours NO_COLOR).]:WHEN:{__apx_complete "${___color[@]}"}'
        '*'{-H,--header}'[Add a header, '\''Name\: value'\'' (repeatable; '\''Name\:'\'' removes one).]:HEADER:'
        '--timeout[Give up after this many seconds (all attempts together; also bounds token requests and commands).]:SECONDS:'
        '--connect-timeout[Give up connecting after this many seconds.]:SECONDS:'
        '--retry[Maximum attempts for retryable failures (overrides the registry).]:N:'
        '--no-retry[Never retry.]'
        '(-v --verbose)'{-v,--verbose}'[Print requests, responses and retries to stderr (secrets masked).]'
        '--insecure[Skip TLS certificate verification (prints a warning).]'
        '--cacert[Trust the CA certificates in this PEM file (and SSL_CERT_FILE/SSL_CERT_DIR'\''s) instead of the system store.]:FILE:'
        '--cert[Mutual TLS\: the client certificate chain (PEM); https and grpcs only.]:FILE:'
        '--key[Mutual TLS\: the client certificate'\''s private key (PEM).]:FILE:'
        '--http1.1[Use HTTP/1.1 only (else HTTP/2 when a TLS server offers it).]'
        '--proxy[Go through this proxy\: http\://\[USER\:PASSWORD@\]HOST\:PORT or socks5\://HOST\:PORT (default\: HTTPS_PROXY, HTTP_PROXY, ALL_PROXY; "" for none).]:URL:'
        '--noproxy[Hosts to reach directly, comma-separated\: names (and names under them), IP addresses, CIDR ranges, or * (default\: NO_PROXY).]:LIST:'
        '--authority[gRPC\: send this \:authority (and TLS server name) instead of the host.]:HOST\[\:PORT\]:'
        '--max-message-size[gRPC and WebSocket\: the largest message sent or received, in bytes (default 4 MiB for gRPC, 16 MiB for WebSocket; a larger WebSocket message exits 9).]:BYTES:'
        '--emit-defaults[gRPC\: print fields that hold their default value (0, "", \[\], false).]'
        '--no-browser[Print the authorization page'\''s URL instead of opening a browser.]'
        ':API:{__apx_custom_complete ---completion auth login -- positional@0 "${current_word_index}" "$(__apx_cursor_index_in_current_word)"}'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_apx_auth_status() {
    local -i ret=1
    local -ar ___output=('json' 'ndjson' 'raw' 'table')
    local -ar ___color=('auto' 'always' 'never')
    local -ar arg_specs=(
        '*--registry[A folder of registry files, or one API.json file (repeatable; default ./Endpoints, then ~/.config/apx/endpoints; env APX_REGISTRY).]:DIR|FILE:_files -g '\''*.json'\'''
        '--env[The registry environment to call (else APX_ENV when the API has it, else the config file'\''s, else the API'\''s default_environment).]:NAME:{__apx_custom_complete ---completion auth status -- --env "${current_word_index}" "$(__apx_cursor_index_in_current_word)"}'
        '--base-url[Call this base URL instead of the environment'\''s.]:URL:'
        '--demo[Start the embedded demo backend on a free loopback port and point this run at it.]'
        '(-o --output)'{-o,--output}'[Output format\: json, ndjson, raw or table (default\: json for bodies, ndjson for streams).]:FORMAT:{__apx_complete "${___output[@]}"}'
        '--select[Print only the values at this jq-style path, e.g. .data.items\[\].id]:PATH:'
        '(-r --raw-output)'{-r,--raw-output}'[Print string results as their text, without JSON quotes (like jq -r).]'
        '--color[Colour\: auto, always or never (auto honours NO_COLOR).]:WHEN:{__apx_complete "${___color[@]}"}'
        '*'{-H,--header}'[Add a header, '\''Name\: value'\'' (repeatable; '\''Name\:'\'' removes one).]:HEADER:'
        '--timeout[Give up after this many seconds (all attempts together; also bounds token requests and commands).]:SECONDS:'
        '--connect-timeout[Give up connecting after this many seconds.]:SECONDS:'
        '--retry[Maximum attempts for retryable failures (overrides the registry).]:N:'
        '--no-retry[Never retry.]'
        '(-v --verbose)'{-v,--verbose}'[Print requests, responses and retries to stderr (secrets masked).]'
        '--insecure[Skip TLS certificate verification (prints a warning).]'
        '--cacert[Trust the CA certificates in this PEM file (and SSL_CERT_FILE/SSL_CERT_DIR'\''s) instead of the system store.]:FILE:'
        '--cert[Mutual TLS\: the client certificate chain (PEM); https and grpcs only.]:FILE:'
        '--key[Mutual TLS\: the client certificate'\''s private key (PEM).]:FILE:'
        '--http1.1[Use HTTP/1.1 only (else HTTP/2 when a TLS server offers it).]'
        '--proxy[Go through this proxy\: http\://\[USER\:PASSWORD@\]HOST\:PORT or socks5\://HOST\:PORT (default\: HTTPS_PROXY, HTTP_PROXY, ALL_PROXY; "" for none).]:URL:'
        '--noproxy[Hosts to reach directly, comma-separated\: names (and names under them), IP addresses, CIDR ranges, or * (default\: NO_PROXY).]:LIST:'
        '--authority[gRPC\: send this \:authority (and TLS server name) instead of the host.]:HOST\[\:PORT\]:'
        '--max-message-size[gRPC and WebSocket\: the largest message sent or received, in bytes (default 4 MiB for gRPC, 16 MiB for WebSocket; a larger WebSocket message exits 9).]:BYTES:'
        '--emit-defaults[gRPC\: print fields that hold their default value (0, "", \[\], false).]'
        ':API:{__apx_custom_complete ---completion auth status -- positional@0 "${current_word_index}" "$(__apx_cursor_index_in_current_word)"}'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_apx_auth_token() {
    local -i ret=1
    local -ar ___output=('json' 'ndjson' 'raw' 'table')
    local -ar ___color=('auto' 'always' 'never')
    local -ar arg_specs=(
        '*--registry[A folder of registry files, or one API.json file (repeatable; default ./Endpoints, then ~/.config/apx/endpoints; env APX_REGISTRY).]:DIR|FILE:_files -g '\''*.json'\'''
        '--env[The registry environment to call (else APX_ENV when the API has it, else the config file'\''s, else the API'\''s default_environment).]:NAME:{__apx_custom_complete ---completion auth token -- --env "${current_word_index}" "$(__apx_cursor_index_in_current_word)"}'
        '--base-url[Call this base URL instead of the environment'\''s.]:URL:'
        '--demo[Start the embedded demo backend on a free loopback port and point this run at it.]'
        '(-o --output)'{-o,--output}'[Output format\: json, ndjson, raw or table (default\: json for bodies, ndjson for streams).]:FORMAT:{__apx_complete "${___output[@]}"}'
        '--select[Print only the values at this jq-style path, e.g. .data.items\[\].id]:PATH:'
        '(-r --raw-output)'{-r,--raw-output}'[Print string results as their text, without JSON quotes (like jq -r).]'
        '--color[Colour\: auto, always or never (auto honours NO_COLOR).]:WHEN:{__apx_complete "${___color[@]}"}'
        '*'{-H,--header}'[Add a header, '\''Name\: value'\'' (repeatable; '\''Name\:'\'' removes one).]:HEADER:'
        '--timeout[Give up after this many seconds (all attempts together; also bounds token requests and commands).]:SECONDS:'
        '--connect-timeout[Give up connecting after this many seconds.]:SECONDS:'
        '--retry[Maximum attempts for retryable failures (overrides the registry).]:N:'
        '--no-retry[Never retry.]'
        '(-v --verbose)'{-v,--verbose}'[Print requests, responses and retries to stderr (secrets masked).]'
        '--insecure[Skip TLS certificate verification (prints a warning).]'
        '--cacert[Trust the CA certificates in this PEM file (and SSL_CERT_FILE/SSL_CERT_DIR'\''s) instead of the system store.]:FILE:'
        '--cert[Mutual TLS\: the client certificate chain (PEM); https and grpcs only.]:FILE:'
        '--key[Mutual TLS\: the client certificate'\''s private key (PEM).]:FILE:'
        '--http1.1[Use HTTP/1.1 only (else HTTP/2 when a TLS server offers it).]'
        '--proxy[Go through this proxy\: http\://\[USER\:PASSWORD@\]HOST\:PORT or socks5\://HOST\:PORT (default\: HTTPS_PROXY, HTTP_PROXY, ALL_PROXY; "" for none).]:URL:'
        '--noproxy[Hosts to reach directly, comma-separated\: names (and names under them), IP addresses, CIDR ranges, or * (default\: NO_PROXY).]:LIST:'
        '--authority[gRPC\: send this \:authority (and TLS server name) instead of the host.]:HOST\[\:PORT\]:'
        '--max-message-size[gRPC and WebSocket\: the largest message sent or received, in bytes (default 4 MiB for gRPC, 16 MiB for WebSocket; a larger WebSocket message exits 9).]:BYTES:'
        '--emit-defaults[gRPC\: print fields that hold their default value (0, "", \[\], false).]'
        ':API:{__apx_custom_complete ---completion auth token -- positional@0 "${current_word_index}" "$(__apx_cursor_index_in_current_word)"}'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_apx_auth_logout() {
    local -i ret=1
    local -ar ___output=('json' 'ndjson' 'raw' 'table')
    local -ar ___color=('auto' 'always' 'never')
    local -ar arg_specs=(
        '*--registry[A folder of registry files, or one API.json file (repeatable; default ./Endpoints, then ~/.config/apx/endpoints; env APX_REGISTRY).]:DIR|FILE:_files -g '\''*.json'\'''
        '--env[The registry environment to call (else APX_ENV when the API has it, else the config file'\''s, else the API'\''s default_environment).]:NAME:{__apx_custom_complete ---completion auth logout -- --env "${current_word_index}" "$(__apx_cursor_index_in_current_word)"}'
        '--base-url[Call this base URL instead of the environment'\''s.]:URL:'
        '--demo[Start the embedded demo backend on a free loopback port and point this run at it.]'
        '(-o --output)'{-o,--output}'[Output format\: json, ndjson, raw or table (default\: json for bodies, ndjson for streams).]:FORMAT:{__apx_complete "${___output[@]}"}'
        '--select[Print only the values at this jq-style path, e.g. .data.items\[\].id]:PATH:'
        '(-r --raw-output)'{-r,--raw-output}'[Print string results as their text, without JSON quotes (like jq -r).]'
        '--color[Colour\: auto, always or never (auto honours NO_COLOR).]:WHEN:{__apx_complete "${___color[@]}"}'
        '*'{-H,--header}'[Add a header, '\''Name\: value'\'' (repeatable; '\''Name\:'\'' removes one).]:HEADER:'
        '--timeout[Give up after this many seconds (all attempts together; also bounds token requests and commands).]:SECONDS:'
        '--connect-timeout[Give up connecting after this many seconds.]:SECONDS:'
        '--retry[Maximum attempts for retryable failures (overrides the registry).]:N:'
        '--no-retry[Never retry.]'
        '(-v --verbose)'{-v,--verbose}'[Print requests, responses and retries to stderr (secrets masked).]'
        '--insecure[Skip TLS certificate verification (prints a warning).]'
        '--cacert[Trust the CA certificates in this PEM file (and SSL_CERT_FILE/SSL_CERT_DIR'\''s) instead of the system store.]:FILE:'
        '--cert[Mutual TLS\: the client certificate chain (PEM); https and grpcs only.]:FILE:'
        '--key[Mutual TLS\: the client certificate'\''s private key (PEM).]:FILE:'
        '--http1.1[Use HTTP/1.1 only (else HTTP/2 when a TLS server offers it).]'
        '--proxy[Go through this proxy\: http\://\[USER\:PASSWORD@\]HOST\:PORT or socks5\://HOST\:PORT (default\: HTTPS_PROXY, HTTP_PROXY, ALL_PROXY; "" for none).]:URL:'
        '--noproxy[Hosts to reach directly, comma-separated\: names (and names under them), IP addresses, CIDR ranges, or * (default\: NO_PROXY).]:LIST:'
        '--authority[gRPC\: send this \:authority (and TLS server name) instead of the host.]:HOST\[\:PORT\]:'
        '--max-message-size[gRPC and WebSocket\: the largest message sent or received, in bytes (default 4 MiB for gRPC, 16 MiB for WebSocket; a larger WebSocket message exits 9).]:BYTES:'
        '--emit-defaults[gRPC\: print fields that hold their default value (0, "", \[\], false).]'
        '--no-revoke[Delete the stored token without revoking it at the server.]'
        ':API:{__apx_custom_complete ---completion auth logout -- positional@0 "${current_word_index}" "$(__apx_cursor_index_in_current_word)"}'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_apx_auth_set-secret() {
    local -i ret=1
    local -ar ___output=('json' 'ndjson' 'raw' 'table')
    local -ar ___color=('auto' 'always' 'never')
    local -ar arg_specs=(
        '*--registry[A folder of registry files, or one API.json file (repeatable; default ./Endpoints, then ~/.config/apx/endpoints; env APX_REGISTRY).]:DIR|FILE:_files -g '\''*.json'\'''
        '--env[The registry environment to call (else APX_ENV when the API has it, else the config file'\''s, else the API'\''s default_environment).]:NAME:{__apx_custom_complete ---completion auth set-secret -- --env "${current_word_index}" "$(__apx_cursor_index_in_current_word)"}'
        '--base-url[Call this base URL instead of the environment'\''s.]:URL:'
        '--demo[Start the embedded demo backend on a free loopback port and point this run at it.]'
        '(-o --output)'{-o,--output}'[Output format\: json, ndjson, raw or table (default\: json for bodies, ndjson for streams).]:FORMAT:{__apx_complete "${___output[@]}"}'
        '--select[Print only the values at this jq-style path, e.g. .data.items\[\].id]:PATH:'
        '(-r --raw-output)'{-r,--raw-output}'[Print string results as their text, without JSON quotes (like jq -r).]'
        '--color[Colour\: auto, always or never (auto honours NO_COLOR).]:WHEN:{__apx_complete "${___color[@]}"}'
        '*'{-H,--header}'[Add a header, '\''Name\: value'\'' (repeatable; '\''Name\:'\'' removes one).]:HEADER:'
        '--timeout[Give up after this many seconds (all attempts together; also bounds token requests and commands).]:SECONDS:'
        '--connect-timeout[Give up connecting after this many seconds.]:SECONDS:'
        '--retry[Maximum attempts for retryable failures (overrides the registry).]:N:'
        '--no-retry[Never retry.]'
        '(-v --verbose)'{-v,--verbose}'[Print requests, responses and retries to stderr (secrets masked).]'
        '--insecure[Skip TLS certificate verification (prints a warning).]'
        '--cacert[Trust the CA certificates in this PEM file (and SSL_CERT_FILE/SSL_CERT_DIR'\''s) instead of the system store.]:FILE:'
        '--cert[Mutual TLS\: the client certificate chain (PEM); https and grpcs only.]:FILE:'
        '--key[Mutual TLS\: the client certificate'\''s private key (PEM).]:FILE:'
        '--http1.1[Use HTTP/1.1 only (else HTTP/2 when a TLS server offers it).]'
        '--proxy[Go through this proxy\: http\://\[USER\:PASSWORD@\]HOST\:PORT or socks5\://HOST\:PORT (default\: HTTPS_PROXY, HTTP_PROXY, ALL_PROXY; "" for none).]:URL:'
        '--noproxy[Hosts to reach directly, comma-separated\: names (and names under them), IP addresses, CIDR ranges, or * (default\: NO_PROXY).]:LIST:'
        '--authority[gRPC\: send this \:authority (and TLS server name) instead of the host.]:HOST\[\:PORT\]:'
        '--max-message-size[gRPC and WebSocket\: the largest message sent or received, in bytes (default 4 MiB for gRPC, 16 MiB for WebSocket; a larger WebSocket message exits 9).]:BYTES:'
        '--emit-defaults[gRPC\: print fields that hold their default value (0, "", \[\], false).]'
        ':NAME:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_apx_auth_delete-secret() {
    local -i ret=1
    local -ar ___output=('json' 'ndjson' 'raw' 'table')
    local -ar ___color=('auto' 'always' 'never')
    local -ar arg_specs=(
        '*--registry[A folder of registry files, or one API.json file (repeatable; default ./Endpoints, then ~/.config/apx/endpoints; env APX_REGISTRY).]:DIR|FILE:_files -g '\''*.json'\'''
        '--env[The registry environment to call (else APX_ENV when the API has it, else the config file'\''s, else the API'\''s default_environment).]:NAME:{__apx_custom_complete ---completion auth delete-secret -- --env "${current_word_index}" "$(__apx_cursor_index_in_current_word)"}'
        '--base-url[Call this base URL instead of the environment'\''s.]:URL:'
        '--demo[Start the embedded demo backend on a free loopback port and point this run at it.]'
        '(-o --output)'{-o,--output}'[Output format\: json, ndjson, raw or table (default\: json for bodies, ndjson for streams).]:FORMAT:{__apx_complete "${___output[@]}"}'
        '--select[Print only the values at this jq-style path, e.g. .data.items\[\].id]:PATH:'
        '(-r --raw-output)'{-r,--raw-output}'[Print string results as their text, without JSON quotes (like jq -r).]'
        '--color[Colour\: auto, always or never (auto honours NO_COLOR).]:WHEN:{__apx_complete "${___color[@]}"}'
        '*'{-H,--header}'[Add a header, '\''Name\: value'\'' (repeatable; '\''Name\:'\'' removes one).]:HEADER:'
        '--timeout[Give up after this many seconds (all attempts together; also bounds token requests and commands).]:SECONDS:'
        '--connect-timeout[Give up connecting after this many seconds.]:SECONDS:'
        '--retry[Maximum attempts for retryable failures (overrides the registry).]:N:'
        '--no-retry[Never retry.]'
        '(-v --verbose)'{-v,--verbose}'[Print requests, responses and retries to stderr (secrets masked).]'
        '--insecure[Skip TLS certificate verification (prints a warning).]'
        '--cacert[Trust the CA certificates in this PEM file (and SSL_CERT_FILE/SSL_CERT_DIR'\''s) instead of the system store.]:FILE:'
        '--cert[Mutual TLS\: the client certificate chain (PEM); https and grpcs only.]:FILE:'
        '--key[Mutual TLS\: the client certificate'\''s private key (PEM).]:FILE:'
        '--http1.1[Use HTTP/1.1 only (else HTTP/2 when a TLS server offers it).]'
        '--proxy[Go through this proxy\: http\://\[USER\:PASSWORD@\]HOST\:PORT or socks5\://HOST\:PORT (default\: HTTPS_PROXY, HTTP_PROXY, ALL_PROXY; "" for none).]:URL:'
        '--noproxy[Hosts to reach directly, comma-separated\: names (and names under them), IP addresses, CIDR ranges, or * (default\: NO_PROXY).]:LIST:'
        '--authority[gRPC\: send this \:authority (and TLS server name) instead of the host.]:HOST\[\:PORT\]:'
        '--max-message-size[gRPC and WebSocket\: the largest message sent or received, in bytes (default 4 MiB for gRPC, 16 MiB for WebSocket; a larger WebSocket message exits 9).]:BYTES:'
        '--emit-defaults[gRPC\: print fields that hold their default value (0, "", \[\], false).]'
        ':NAME:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_apx_run() {
    local -i ret=1
    local -ar ___output=('json' 'ndjson' 'raw' 'table')
    local -ar ___color=('auto' 'always' 'never')
    local -ar arg_specs=(
        '*--registry[A folder of registry files, or one API.json file (repeatable; default ./Endpoints, then ~/.config/apx/endpoints; env APX_REGISTRY).]:DIR|FILE:_files -g '\''*.json'\'''
        '--env[The registry environment to call (else APX_ENV when the API has it, else the config file'\''s, else the API'\''s default_environment).]:NAME:{__apx_custom_complete ---completion run -- --env "${current_word_index}" "$(__apx_cursor_index_in_current_word)"}'
        '--base-url[Call this base URL instead of the environment'\''s.]:URL:'
        '--demo[Start the embedded demo backend on a free loopback port and point this run at it.]'
        '(-o --output)'{-o,--output}'[Output format\: json, ndjson, raw or table (default\: json for bodies, ndjson for streams).]:FORMAT:{__apx_complete "${___output[@]}"}'
        '--select[Print only the values at this jq-style path, e.g. .data.items\[\].id]:PATH:'
        '(-r --raw-output)'{-r,--raw-output}'[Print string results as their text, without JSON quotes (like jq -r).]'
        '--color[Colour\: auto, always or never (auto honours NO_COLOR).]:WHEN:{__apx_complete "${___color[@]}"}'
        '*'{-H,--header}'[Add a header, '\''Name\: value'\'' (repeatable; '\''Name\:'\'' removes one).]:HEADER:'
        '--timeout[Give up after this many seconds (all attempts together; also bounds token requests and commands).]:SECONDS:'
        '--connect-timeout[Give up connecting after this many seconds.]:SECONDS:'
        '--retry[Maximum attempts for retryable failures (overrides the registry).]:N:'
        '--no-retry[Never retry.]'
        '(-v --verbose)'{-v,--verbose}'[Print requests, responses and retries to stderr (secrets masked).]'
        '--insecure[Skip TLS certificate verification (prints a warning).]'
        '--cacert[Trust the CA certificates in this PEM file (and SSL_CERT_FILE/SSL_CERT_DIR'\''s) instead of the system store.]:FILE:'
        '--cert[Mutual TLS\: the client certificate chain (PEM); https and grpcs only.]:FILE:'
        '--key[Mutual TLS\: the client certificate'\''s private key (PEM).]:FILE:'
        '--http1.1[Use HTTP/1.1 only (else HTTP/2 when a TLS server offers it).]'
        '--proxy[Go through this proxy\: http\://\[USER\:PASSWORD@\]HOST\:PORT or socks5\://HOST\:PORT (default\: HTTPS_PROXY, HTTP_PROXY, ALL_PROXY; "" for none).]:URL:'
        '--noproxy[Hosts to reach directly, comma-separated\: names (and names under them), IP addresses, CIDR ranges, or * (default\: NO_PROXY).]:LIST:'
        '--authority[gRPC\: send this \:authority (and TLS server name) instead of the host.]:HOST\[\:PORT\]:'
        '--max-message-size[gRPC and WebSocket\: the largest message sent or received, in bytes (default 4 MiB for gRPC, 16 MiB for WebSocket; a larger WebSocket message exits 9).]:BYTES:'
        '--emit-defaults[gRPC\: print fields that hold their default value (0, "", \[\], false).]'
        ':RECIPE:_files -g '\''*.json'\'''
        '*:INPUT:{__apx_custom_complete ---completion run -- positional@1 "${current_word_index}" "$(__apx_cursor_index_in_current_word)"}'
        '--events[Print every step'\''s result, stream item, retry, reconnect and fallback as NDJSON on stdout.]'
        '--dry-run[Print the requests that would be sent (secrets masked) and send nothing.]'
        '--test[Count checks passed and failed; exit 9 when any failed.]'
        '--report[Write a report\: junit FILE.]:FORMAT FILE:'
        '--session[Keep the cookies servers set in the session NAME (a 0600 file in the state folder) and send them back on later calls with the same --session; see `apx session`.]:NAME:'
        '--har[Write every exchange (redirects, retries, token requests and pages included) to FILE as an HTTP Archive (HAR 1.2), secrets masked as -v masks them; written when the command ends, success or not.]:FILE:_files -g '\''*.har'\'''
        '--mock[Run against `apx mock` of the recipe'\''s APIs, started in-process on free loopback ports.]'
        '--resume[Resume the latest unfinished run of this recipe (or the RUN_ID given among the inputs).]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_apx_session() {
    local -i ret=1
    local -ar arg_specs=(
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
        '(-): :->command'
        '(-)*:: :->arg'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0
    case "${state}" in
    command)
        local -ar subcommands=(
            'list:List the stored sessions and how many cookies each holds.'
            'show:Show a session'\''s cookies: name, domain, path, Secure, expiry (values masked).'
            'clear:Delete a session and its cookies.'
        )
        _describe -V subcommand subcommands && ret=0
        ;;
    arg)
        case "${words[1]}" in
        list|show|clear)
            "_apx_session_${words[1]}" && ret=0
            ;;
        esac
        ;;
    esac

    return "${ret}"
}

_apx_session_list() {
    local -i ret=1
    local -ar ___output=('json' 'ndjson' 'raw' 'table')
    local -ar ___color=('auto' 'always' 'never')
    local -ar arg_specs=(
        '(-o --output)'{-o,--output}'[Output format\: json, ndjson, raw or table (default\: json for bodies, ndjson for streams).]:FORMAT:{__apx_complete "${___output[@]}"}'
        '--select[Print only the values at this jq-style path, e.g. .data.items\[\].id]:PATH:'
        '(-r --raw-output)'{-r,--raw-output}'[Print string results as their text, without JSON quotes (like jq -r).]'
        '--color[Colour\: auto, always or never (auto honours NO_COLOR).]:WHEN:{__apx_complete "${___color[@]}"}'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_apx_session_show() {
    local -i ret=1
    local -ar ___output=('json' 'ndjson' 'raw' 'table')
    local -ar ___color=('auto' 'always' 'never')
    local -ar arg_specs=(
        '(-o --output)'{-o,--output}'[Output format\: json, ndjson, raw or table (default\: json for bodies, ndjson for streams).]:FORMAT:{__apx_complete "${___output[@]}"}'
        '--select[Print only the values at this jq-style path, e.g. .data.items\[\].id]:PATH:'
        '(-r --raw-output)'{-r,--raw-output}'[Print string results as their text, without JSON quotes (like jq -r).]'
        '--color[Colour\: auto, always or never (auto honours NO_COLOR).]:WHEN:{__apx_complete "${___color[@]}"}'
        ':NAME:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_apx_session_clear() {
    local -i ret=1
    local -ar arg_specs=(
        ':NAME:'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

_apx_help() {
    local -i ret=1
    local -ar arg_specs=(
        '*:subcommands:'
        '--version[Show the version.]'
    )
    _arguments -w -s -S : "${arg_specs[@]}" && ret=0

    return "${ret}"
}

# apx: a candidate ending in =, @ or / (name=, csv=@, a folder) goes on in the same
# word: no space after it (and its ':' is no description separator).
__apx_complete() {
    local -a non_empty_completions=("${@:#(|:*)}")
    local -ar empty_completions=("${(M)@:#(|:*)}")
    local -a open=("${(@M)non_empty_completions:#*[=@/]}")
    non_empty_completions=("${(@)non_empty_completions:#*[=@/]}")
    open=("${(@)open//:/\\:}")
    (( ${#open} )) && _describe -V '' open -S ''
    _describe -V '' non_empty_completions -- empty_completions -P $'\'\''
}

if [[ "${funcstack[1]}" = _apx ]]; then
    _apx "${@}"
else
    compdef _apx apx
fi