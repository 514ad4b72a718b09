function __apx_should_offer_completions_for_flags_or_options -a expected_commands
    set -l non_repeating_flags_or_options $argv[2..]
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __apx_parse_tokens
    test "$commands" = "$expected_commands"; and return $non_repeating_flags_or_options_absent
end

function __apx_should_offer_completions_for_positional -a expected_commands positional_index_comparison expected_positional_index
    set -l non_repeating_flags_or_options
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __apx_parse_tokens
    test "$commands" = "$expected_commands" -a \( "$positional_index" "$positional_index_comparison" "$expected_positional_index" \)
end

function __apx_parse_tokens -S
    set -l unparsed_tokens (__apx_tokens -pc)
    switch $unparsed_tokens[1]
    case 'apx'
        __apx_parse_subcommand 0 'version' 'h/help'
        switch $unparsed_tokens[1]
        case 'call'
            __apx_parse_subcommand -r 2 'registry=+' 'env=' 'base-url=' 'demo' 'o/output=' 'select=' 'r/raw-output' 'H/header=+' 'timeout=' 'connect-timeout=' 'retry=' 'no-retry' 'v/verbose' 'color=' 'insecure' 'cacert=' 'cert=' 'key=' 'authority=' 'max-message-size=' 'emit-defaults' 'd/data=' 'max-events=' 'token-stdin' 'form' 'a/auth=' 'bearer=' 'no-auth' 'sse' 'until-event=+' 'proto=+' 'import-path=+' 'protoset=' 'save=' 'version' 'h/help'
        case 'list'
            __apx_parse_subcommand 1 'registry=+' 'env=' 'base-url=' 'demo' 'o/output=' 'select=' 'r/raw-output' 'H/header=+' 'timeout=' 'connect-timeout=' 'retry=' 'no-retry' 'v/verbose' 'color=' 'insecure' 'cacert=' 'cert=' 'key=' 'authority=' 'max-message-size=' 'emit-defaults' 'grpc=' 'version' 'h/help'
        case 'describe'
            __apx_parse_subcommand 1 'registry=+' 'env=' 'base-url=' 'demo' 'o/output=' 'select=' 'r/raw-output' 'H/header=+' 'timeout=' 'connect-timeout=' 'retry=' 'no-retry' 'v/verbose' 'color=' 'insecure' 'cacert=' 'cert=' 'key=' 'authority=' 'max-message-size=' 'emit-defaults' 'version' 'h/help'
        case 'validate'
            __apx_parse_subcommand -r 1 'registry=+' 'env=' 'base-url=' 'demo' 'o/output=' 'select=' 'r/raw-output' 'H/header=+' 'timeout=' 'connect-timeout=' 'retry=' 'no-retry' 'v/verbose' 'color=' 'insecure' 'cacert=' 'cert=' 'key=' 'authority=' 'max-message-size=' 'emit-defaults' 'version' 'h/help'
        case 'import'
            __apx_parse_subcommand 0 'version' 'h/help'
            switch $unparsed_tokens[1]
            case 'openapi'
                __apx_parse_subcommand 1 'api=' 'out=' 'force' 'timeout=' 'insecure' 'cacert=' 'version' 'h/help'
            case 'grpc'
                __apx_parse_subcommand 1 'api=' 'out=' 'force' 'I/import-path=+' 'timeout=' 'insecure' 'cacert=' 'version' 'h/help'
            end
        case 'demo'
            __apx_parse_subcommand 0 'port=' 'grpc-port=' 'token-lifetime=' 'grpc-tls-cert=' 'grpc-tls-key=' 'grpc-client-ca=' 'version' 'h/help'
        case 'completions'
            __apx_parse_subcommand 1 'version' 'h/help'
        case 'manual'
            __apx_parse_subcommand 0 'version' 'h/help'
        case 'auth'
            __apx_parse_subcommand 0 'version' 'h/help'
            switch $unparsed_tokens[1]
            case 'login'
                __apx_parse_subcommand 1 'registry=+' 'env=' 'base-url=' 'demo' 'o/output=' 'select=' 'r/raw-output' 'H/header=+' 'timeout=' 'connect-timeout=' 'retry=' 'no-retry' 'v/verbose' 'color=' 'insecure' 'cacert=' 'cert=' 'key=' 'authority=' 'max-message-size=' 'emit-defaults' 'version' 'h/help'
            case 'status'
                __apx_parse_subcommand 1 'registry=+' 'env=' 'base-url=' 'demo' 'o/output=' 'select=' 'r/raw-output' 'H/header=+' 'timeout=' 'connect-timeout=' 'retry=' 'no-retry' 'v/verbose' 'color=' 'insecure' 'cacert=' 'cert=' 'key=' 'authority=' 'max-message-size=' 'emit-defaults' 'version' 'h/help'
            case 'token'
                __apx_parse_subcommand 1 'registry=+' 'env=' 'base-url=' 'demo' 'o/output=' 'select=' 'r/raw-output' 'H/header=+' 'timeout=' 'connect-timeout=' 'retry=' 'no-retry' 'v/verbose' 'color=' 'insecure' 'cacert=' 'cert=' 'key=' 'authority=' 'max-message-size=' 'emit-defaults' 'version' 'h/help'
            case 'logout'
                __apx_parse_subcommand 1 'registry=+' 'env=' 'base-url=' 'demo' 'o/output=' 'select=' 'r/raw-output' 'H/header=+' 'timeout=' 'connect-timeout=' 'retry=' 'no-retry' 'v/verbose' 'color=' 'insecure' 'cacert=' 'cert=' 'key=' 'authority=' 'max-message-size=' 'emit-defaults' 'version' 'h/help'
            end
        case 'run'
            __apx_parse_subcommand -r 2 'registry=+' 'env=' 'base-url=' 'demo' 'o/output=' 'select=' 'r/raw-output' 'H/header=+' 'timeout=' 'connect-timeout=' 'retry=' 'no-retry' 'v/verbose' 'color=' 'insecure' 'cacert=' 'cert=' 'key=' 'authority=' 'max-message-size=' 'emit-defaults' 'events' 'dry-run' 'test' 'report=+' 'resume' 'version' 'h/help'
        case 'help'
            __apx_parse_subcommand -r 1 'version'
        end
    end
end

function __apx_tokens
    if test (string split -m 1 -f 1 -- . "$FISH_VERSION") -gt 3
        commandline --tokens-raw $argv
    else
        commandline -o $argv
    end
end

function __apx_parse_subcommand -S -a positional_count
    argparse -s r -- $argv
    set -l option_specs $argv[2..]
    set -l is_repeating_positional $_flag_r
    set -el _flag_r
    set -a commands $unparsed_tokens[1]
    set positional_index 0
    while true
        set -e unparsed_tokens[1]
        argparse -sn "$commands" $option_specs -- $unparsed_tokens 2> /dev/null
        set unparsed_tokens $argv
        set positional_index (math $positional_index + 1)
        for non_repeating_flag_or_option in $non_repeating_flags_or_options
            if set -ql "_flag_$(string replace -a - _ -- $non_repeating_flag_or_option)"
                set non_repeating_flags_or_options_absent 1
                break
            end
        end
        test (count $unparsed_tokens) -eq 0 -o \( -z "$is_repeating_positional" -a "$positional_index" -gt "$positional_count" \) && break
    end
end

function __apx_complete_directories
    set -l token (commandline -t)
    string match -- '*/' $token
    set -l subdirs $token*/
    printf %s\n $subdirs
end

function __apx_custom_completion
    set -x SAP_SHELL fish
    set -x SAP_SHELL_VERSION $FISH_VERSION
    set -l tokens (__apx_tokens -p)
    if test -z "$(__apx_tokens -t)"
        set -l index (count (__apx_tokens -pc))
        set tokens $tokens[..$index] \'\' $tokens[(math $index + 1)..]
    end
    command $tokens[1] $argv $tokens
end

complete -c 'apx' -f
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx" version' -l 'version' -d 'Show the version.'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'apx' -n '__apx_should_offer_completions_for_positional "apx" -eq 1' -fa 'call' -d 'Call a registry endpoint, or any URL, and print the result as JSON.'
complete -c 'apx' -n '__apx_should_offer_completions_for_positional "apx" -eq 1' -fa 'list' -d 'List the registry\'s APIs, or one API\'s endpoints.'
complete -c 'apx' -n '__apx_should_offer_completions_for_positional "apx" -eq 1' -fa 'describe' -d 'Show an endpoint\'s parameters and an example call, as JSON.'
complete -c 'apx' -n '__apx_should_offer_completions_for_positional "apx" -eq 1' -fa 'validate' -d 'Check registry files; print file:line:column errors and exit 3 when any is invalid.'
complete -c 'apx' -n '__apx_should_offer_completions_for_positional "apx" -eq 1' -fa 'import' -d 'Write a registry file from an OpenAPI/Swagger description or a gRPC schema.'
complete -c 'apx' -n '__apx_should_offer_completions_for_positional "apx" -eq 1' -fa 'demo' -d 'Run the embedded demo backend (books, gifs, classnotes gRPC) on 127.0.0.1 until Ctrl-C.'
complete -c 'apx' -n '__apx_should_offer_completions_for_positional "apx" -eq 1' -fa 'completions' -d 'Print a shell completion script (bash, zsh or fish).'
complete -c 'apx' -n '__apx_should_offer_completions_for_positional "apx" -eq 1' -fa 'manual' -d 'Print apx\'s man page (roff) built from every command\'s help.'
complete -c 'apx' -n '__apx_should_offer_completions_for_positional "apx" -eq 1' -fa 'auth' -d 'Manage stored tokens (OAuth2 client credentials, token commands).'
complete -c 'apx' -n '__apx_should_offer_completions_for_positional "apx" -eq 1' -fa 'run' -d 'Run a recipe: chained calls with their data flowing forward; prints the recipe\'s output as JSON.'
complete -c 'apx' -n '__apx_should_offer_completions_for_positional "apx" -eq 1' -fa 'help' -d 'Show subcommand help information.'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx call"' -l 'registry' -d 'A folder of registry files, or one API.json file (repeatable; default ./Endpoints, then ~/.config/apx/endpoints; env APX_REGISTRY).' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx call" env' -l 'env' -d 'The registry environment to call (default: the API\'s default_environment).' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx call" base-url' -l 'base-url' -d 'Call this base URL instead of the environment\'s.' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx call" demo' -l 'demo' -d 'Start the embedded demo backend on a free loopback port and point this run at it.'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx call" o output' -s 'o' -l 'output' -d 'Output format: json, ndjson, raw or table (default: json for bodies, ndjson for streams).' -rfka 'json ndjson raw table'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx call" select' -l 'select' -d 'Print only the values at this jq-style path, e.g. .data.items[].id' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx call" r raw-output' -s 'r' -l 'raw-output' -d 'Print string results as their text, without JSON quotes (like jq -r).'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx call"' -s 'H' -l 'header' -d 'Add a header, \'Name: value\' (repeatable; \'Name:\' removes one).' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx call" timeout' -l 'timeout' -d 'Give up after this many seconds (all attempts together; also bounds token requests and commands).' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx call" connect-timeout' -l 'connect-timeout' -d 'Give up connecting after this many seconds (default 10).' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx call" retry' -l 'retry' -d 'Maximum attempts for retryable failures (overrides the registry).' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx call" no-retry' -l 'no-retry' -d 'Never retry.'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx call" v verbose' -s 'v' -l 'verbose' -d 'Print requests, responses and retries to stderr (secrets masked).'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx call" color' -l 'color' -d 'Colour: auto, always or never (auto honours NO_COLOR).' -rfka 'auto always never'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx call" insecure' -l 'insecure' -d 'Skip TLS certificate verification (prints a warning).'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx call" cacert' -l 'cacert' -d 'Trust the CA certificates in this PEM file.' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx call" cert' -l 'cert' -d 'gRPC mutual TLS: the client certificate chain (PEM).' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx call" key' -l 'key' -d 'gRPC mutual TLS: the client certificate\'s private key (PEM).' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx call" authority' -l 'authority' -d 'gRPC: send this :authority (and TLS server name) instead of the host.' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx call" max-message-size' -l 'max-message-size' -d 'gRPC: the largest message sent or received, in bytes (default 4 MiB).' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx call" emit-defaults' -l 'emit-defaults' -d 'gRPC: print fields that hold their default value (0, "", [], false).'
complete -c 'apx' -n '__apx_should_offer_completions_for_positional "apx call" -eq 1' -fka '(__apx_custom_completion ---completion call -- positional@0 (count (__apx_tokens -pc)) (__apx_tokens -tC))'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx call" d data' -s 'd' -l 'data' -d 'The request body: JSON text, @file or @- for stdin.' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx call" max-events' -l 'max-events' -d 'Stop a stream after this many events or messages.' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx call" token-stdin' -l 'token-stdin' -d 'Read a bearer token from stdin and use it instead of the registry\'s auth.'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx call" form' -l 'form' -d 'Send body items as a form (multipart/form-data when there is a file part).'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx call" a auth' -s 'a' -l 'auth' -d 'Basic auth, instead of the registry\'s.' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx call" bearer' -l 'bearer' -d 'A bearer token, instead of the registry\'s auth.' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx call" no-auth' -l 'no-auth' -d 'Send no credentials from the registry.'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx call" sse' -l 'sse' -d 'Follow the URL as a server-sent-events stream (reconnecting with Last-Event-ID), one JSON object per event.'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx call"' -l 'until-event' -d 'Stop a stream successfully after an event of this type (repeatable).' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx call"' -l 'proto' -d 'gRPC URL: take the schema from this .proto file, compiled with protoc (repeatable).' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx call"' -l 'import-path' -d 'gRPC URL: a folder protoc searches for --proto files and their imports (repeatable).' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx call" protoset' -l 'protoset' -d 'gRPC URL: take the schema from this FileDescriptorSet (default: server reflection).' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx call" save' -l 'save' -d 'URL: once the call succeeds, save it in the registry as this endpoint (values become defaults).' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx call" version' -l 'version' -d 'Show the version.'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx call" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx list"' -l 'registry' -d 'A folder of registry files, or one API.json file (repeatable; default ./Endpoints, then ~/.config/apx/endpoints; env APX_REGISTRY).' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx list" env' -l 'env' -d 'The registry environment to call (default: the API\'s default_environment).' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx list" base-url' -l 'base-url' -d 'Call this base URL instead of the environment\'s.' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx list" demo' -l 'demo' -d 'Start the embedded demo backend on a free loopback port and point this run at it.'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx list" o output' -s 'o' -l 'output' -d 'Output format: json, ndjson, raw or table (default: json for bodies, ndjson for streams).' -rfka 'json ndjson raw table'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx list" select' -l 'select' -d 'Print only the values at this jq-style path, e.g. .data.items[].id' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx list" r raw-output' -s 'r' -l 'raw-output' -d 'Print string results as their text, without JSON quotes (like jq -r).'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx list"' -s 'H' -l 'header' -d 'Add a header, \'Name: value\' (repeatable; \'Name:\' removes one).' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx list" timeout' -l 'timeout' -d 'Give up after this many seconds (all attempts together; also bounds token requests and commands).' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx list" connect-timeout' -l 'connect-timeout' -d 'Give up connecting after this many seconds (default 10).' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx list" retry' -l 'retry' -d 'Maximum attempts for retryable failures (overrides the registry).' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx list" no-retry' -l 'no-retry' -d 'Never retry.'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx list" v verbose' -s 'v' -l 'verbose' -d 'Print requests, responses and retries to stderr (secrets masked).'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx list" color' -l 'color' -d 'Colour: auto, always or never (auto honours NO_COLOR).' -rfka 'auto always never'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx list" insecure' -l 'insecure' -d 'Skip TLS certificate verification (prints a warning).'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx list" cacert' -l 'cacert' -d 'Trust the CA certificates in this PEM file.' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx list" cert' -l 'cert' -d 'gRPC mutual TLS: the client certificate chain (PEM).' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx list" key' -l 'key' -d 'gRPC mutual TLS: the client certificate\'s private key (PEM).' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx list" authority' -l 'authority' -d 'gRPC: send this :authority (and TLS server name) instead of the host.' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx list" max-message-size' -l 'max-message-size' -d 'gRPC: the largest message sent or received, in bytes (default 4 MiB).' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx list" emit-defaults' -l 'emit-defaults' -d 'gRPC: print fields that hold their default value (0, "", [], false).'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx list" grpc' -l 'grpc' -d 'List the services and methods a gRPC server offers over reflection, without a registry entry (HOST:PORT or grpc://HOST:PORT plaintext, grpcs://HOST:PORT TLS).' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx list" version' -l 'version' -d 'Show the version.'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx list" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx describe"' -l 'registry' -d 'A folder of registry files, or one API.json file (repeatable; default ./Endpoints, then ~/.config/apx/endpoints; env APX_REGISTRY).' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx describe" env' -l 'env' -d 'The registry environment to call (default: the API\'s default_environment).' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx describe" base-url' -l 'base-url' -d 'Call this base URL instead of the environment\'s.' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx describe" demo' -l 'demo' -d 'Start the embedded demo backend on a free loopback port and point this run at it.'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx describe" o output' -s 'o' -l 'output' -d 'Output format: json, ndjson, raw or table (default: json for bodies, ndjson for streams).' -rfka 'json ndjson raw table'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx describe" select' -l 'select' -d 'Print only the values at this jq-style path, e.g. .data.items[].id' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx describe" r raw-output' -s 'r' -l 'raw-output' -d 'Print string results as their text, without JSON quotes (like jq -r).'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx describe"' -s 'H' -l 'header' -d 'Add a header, \'Name: value\' (repeatable; \'Name:\' removes one).' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx describe" timeout' -l 'timeout' -d 'Give up after this many seconds (all attempts together; also bounds token requests and commands).' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx describe" connect-timeout' -l 'connect-timeout' -d 'Give up connecting after this many seconds (default 10).' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx describe" retry' -l 'retry' -d 'Maximum attempts for retryable failures (overrides the registry).' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx describe" no-retry' -l 'no-retry' -d 'Never retry.'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx describe" v verbose' -s 'v' -l 'verbose' -d 'Print requests, responses and retries to stderr (secrets masked).'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx describe" color' -l 'color' -d 'Colour: auto, always or never (auto honours NO_COLOR).' -rfka 'auto always never'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx describe" insecure' -l 'insecure' -d 'Skip TLS certificate verification (prints a warning).'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx describe" cacert' -l 'cacert' -d 'Trust the CA certificates in this PEM file.' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx describe" cert' -l 'cert' -d 'gRPC mutual TLS: the client certificate chain (PEM).' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx describe" key' -l 'key' -d 'gRPC mutual TLS: the client certificate\'s private key (PEM).' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx describe" authority' -l 'authority' -d 'gRPC: send this :authority (and TLS server name) instead of the host.' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx describe" max-message-size' -l 'max-message-size' -d 'gRPC: the largest message sent or received, in bytes (default 4 MiB).' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx describe" emit-defaults' -l 'emit-defaults' -d 'gRPC: print fields that hold their default value (0, "", [], false).'
complete -c 'apx' -n '__apx_should_offer_completions_for_positional "apx describe" -eq 1' -fka '(__apx_custom_completion ---completion describe -- positional@0 (count (__apx_tokens -pc)) (__apx_tokens -tC))'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx describe" version' -l 'version' -d 'Show the version.'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx describe" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx validate"' -l 'registry' -d 'A folder of registry files, or one API.json file (repeatable; default ./Endpoints, then ~/.config/apx/endpoints; env APX_REGISTRY).' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx validate" env' -l 'env' -d 'The registry environment to call (default: the API\'s default_environment).' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx validate" base-url' -l 'base-url' -d 'Call this base URL instead of the environment\'s.' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx validate" demo' -l 'demo' -d 'Start the embedded demo backend on a free loopback port and point this run at it.'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx validate" o output' -s 'o' -l 'output' -d 'Output format: json, ndjson, raw or table (default: json for bodies, ndjson for streams).' -rfka 'json ndjson raw table'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx validate" select' -l 'select' -d 'Print only the values at this jq-style path, e.g. .data.items[].id' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx validate" r raw-output' -s 'r' -l 'raw-output' -d 'Print string results as their text, without JSON quotes (like jq -r).'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx validate"' -s 'H' -l 'header' -d 'Add a header, \'Name: value\' (repeatable; \'Name:\' removes one).' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx validate" timeout' -l 'timeout' -d 'Give up after this many seconds (all attempts together; also bounds token requests and commands).' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx validate" connect-timeout' -l 'connect-timeout' -d 'Give up connecting after this many seconds (default 10).' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx validate" retry' -l 'retry' -d 'Maximum attempts for retryable failures (overrides the registry).' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx validate" no-retry' -l 'no-retry' -d 'Never retry.'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx validate" v verbose' -s 'v' -l 'verbose' -d 'Print requests, responses and retries to stderr (secrets masked).'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx validate" color' -l 'color' -d 'Colour: auto, always or never (auto honours NO_COLOR).' -rfka 'auto always never'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx validate" insecure' -l 'insecure' -d 'Skip TLS certificate verification (prints a warning).'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx validate" cacert' -l 'cacert' -d 'Trust the CA certificates in this PEM file.' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx validate" cert' -l 'cert' -d 'gRPC mutual TLS: the client certificate chain (PEM).' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx validate" key' -l 'key' -d 'gRPC mutual TLS: the client certificate\'s private key (PEM).' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx validate" authority' -l 'authority' -d 'gRPC: send this :authority (and TLS server name) instead of the host.' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx validate" max-message-size' -l 'max-message-size' -d 'gRPC: the largest message sent or received, in bytes (default 4 MiB).' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx validate" emit-defaults' -l 'emit-defaults' -d 'gRPC: print fields that hold their default value (0, "", [], false).'
complete -c 'apx' -n '__apx_should_offer_completions_for_positional "apx validate" -ge 1' -fa '(for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.\'json\';printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx validate" version' -l 'version' -d 'Show the version.'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx validate" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx import" version' -l 'version' -d 'Show the version.'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx import" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'apx' -n '__apx_should_offer_completions_for_positional "apx import" -eq 1' -fa 'openapi' -d 'Import an OpenAPI 3.0/3.1/3.2 or Swagger 2.0 description (JSON or YAML file, or http(s) URL).'
complete -c 'apx' -n '__apx_should_offer_completions_for_positional "apx import" -eq 1' -fa 'grpc' -d 'Import the services of a gRPC server (reflection), a .proto file or a .protoset.'
complete -c 'apx' -n '__apx_should_offer_completions_for_positional "apx import openapi" -eq 1' -fa '(set -l exts \'json\' \'yaml\' \'yml\';for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.{$exts};printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx import openapi" api' -l 'api' -d 'The API name (letters, digits, \'-\', \'_\'): the file is NAME.json and calls are `apx call NAME.ENDPOINT` (default: from the description\'s title or service).' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx import openapi" out' -l 'out' -d 'The folder to write NAME.json into.' -rfa '(__apx_complete_directories)'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx import openapi" force' -l 'force' -d 'Replace NAME.json when it exists with different content.'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx import openapi" timeout' -l 'timeout' -d 'Give up fetching a URL after this many seconds.' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx import openapi" insecure' -l 'insecure' -d 'Fetching a URL: skip TLS certificate verification (prints a warning).'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx import openapi" cacert' -l 'cacert' -d 'Fetching a URL: trust the CA certificates in this PEM file.' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx import openapi" version' -l 'version' -d 'Show the version.'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx import openapi" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx import grpc" api' -l 'api' -d 'The API name (letters, digits, \'-\', \'_\'): the file is NAME.json and calls are `apx call NAME.ENDPOINT` (default: from the description\'s title or service).' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx import grpc" out' -l 'out' -d 'The folder to write NAME.json into.' -rfa '(__apx_complete_directories)'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx import grpc" force' -l 'force' -d 'Replace NAME.json when it exists with different content.'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx import grpc"' -s 'I' -l 'import-path' -d 'With a .proto TARGET: a folder protoc searches for imports (repeatable).' -rfa '(__apx_complete_directories)'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx import grpc" timeout' -l 'timeout' -d 'Reflection: give up after this many seconds.' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx import grpc" insecure' -l 'insecure' -d 'grpcs: skip TLS certificate verification (prints a warning).'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx import grpc" cacert' -l 'cacert' -d 'grpcs: trust the CA certificates in this PEM file.' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx import grpc" version' -l 'version' -d 'Show the version.'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx import grpc" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx demo" port' -l 'port' -d 'HTTP port (0 picks a free one).' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx demo" grpc-port' -l 'grpc-port' -d 'gRPC port (0 picks a free one).' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx demo" token-lifetime' -l 'token-lifetime' -d 'Lifetime of issued OAuth tokens in seconds.' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx demo" grpc-tls-cert' -l 'grpc-tls-cert' -d 'Serve gRPC over TLS with this PEM certificate chain.' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx demo" grpc-tls-key' -l 'grpc-tls-key' -d 'PEM private key of --grpc-tls-cert.' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx demo" grpc-client-ca' -l 'grpc-client-ca' -d 'Require gRPC client certificates signed by this PEM CA (mutual TLS).' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx demo" version' -l 'version' -d 'Show the version.'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx demo" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx completions" version' -l 'version' -d 'Show the version.'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx completions" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx manual" version' -l 'version' -d 'Show the version.'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx manual" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx auth" version' -l 'version' -d 'Show the version.'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx auth" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'apx' -n '__apx_should_offer_completions_for_positional "apx auth" -eq 1' -fa 'login' -d 'Get a new token for an API now and store it (prints a summary, not the token).'
complete -c 'apx' -n '__apx_should_offer_completions_for_positional "apx auth" -eq 1' -fa 'status' -d 'Show stored tokens: API, environment, type, expiry (never the token).'
complete -c 'apx' -n '__apx_should_offer_completions_for_positional "apx auth" -eq 1' -fa 'token' -d 'Print a valid token for an API (refreshed if needed): the one command that shows a token.'
complete -c 'apx' -n '__apx_should_offer_completions_for_positional "apx auth" -eq 1' -fa 'logout' -d 'Delete the stored token of an API (in --env, or its default environment).'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx auth login"' -l 'registry' -d 'A folder of registry files, or one API.json file (repeatable; default ./Endpoints, then ~/.config/apx/endpoints; env APX_REGISTRY).' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx auth login" env' -l 'env' -d 'The registry environment to call (default: the API\'s default_environment).' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx auth login" base-url' -l 'base-url' -d 'Call this base URL instead of the environment\'s.' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx auth login" demo' -l 'demo' -d 'Start the embedded demo backend on a free loopback port and point this run at it.'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx auth login" o output' -s 'o' -l 'output' -d 'Output format: json, ndjson, raw or table (default: json for bodies, ndjson for streams).' -rfka 'json ndjson raw table'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx auth login" select' -l 'select' -d 'Print only the values at this jq-style path, e.g. .data.items[].id' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx auth login" r raw-output' -s 'r' -l 'raw-output' -d 'Print string results as their text, without JSON quotes (like jq -r).'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx auth login"' -s 'H' -l 'header' -d 'Add a header, \'Name: value\' (repeatable; \'Name:\' removes one).' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx auth login" timeout' -l 'timeout' -d 'Give up after this many seconds (all attempts together; also bounds token requests and commands).' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx auth login" connect-timeout' -l 'connect-timeout' -d 'Give up connecting after this many seconds (default 10).' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx auth login" retry' -l 'retry' -d 'Maximum attempts for retryable failures (overrides the registry).' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx auth login" no-retry' -l 'no-retry' -d 'Never retry.'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx auth login" v verbose' -s 'v' -l 'verbose' -d 'Print requests, responses and retries to stderr (secrets masked).'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx auth login" color' -l 'color' -d 'Colour: auto, always or never (auto honours NO_COLOR).' -rfka 'auto always never'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx auth login" insecure' -l 'insecure' -d 'Skip TLS certificate verification (prints a warning).'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx auth login" cacert' -l 'cacert' -d 'Trust the CA certificates in this PEM file.' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx auth login" cert' -l 'cert' -d 'gRPC mutual TLS: the client certificate chain (PEM).' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx auth login" key' -l 'key' -d 'gRPC mutual TLS: the client certificate\'s private key (PEM).' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx auth login" authority' -l 'authority' -d 'gRPC: send this :authority (and TLS server name) instead of the host.' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx auth login" max-message-size' -l 'max-message-size' -d 'gRPC: the largest message sent or received, in bytes (default 4 MiB).' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx auth login" emit-defaults' -l 'emit-defaults' -d 'gRPC: print fields that hold their default value (0, "", [], false).'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx auth login" version' -l 'version' -d 'Show the version.'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx auth login" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx auth status"' -l 'registry' -d 'A folder of registry files, or one API.json file (repeatable; default ./Endpoints, then ~/.config/apx/endpoints; env APX_REGISTRY).' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx auth status" env' -l 'env' -d 'The registry environment to call (default: the API\'s default_environment).' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx auth status" base-url' -l 'base-url' -d 'Call this base URL instead of the environment\'s.' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx auth status" demo' -l 'demo' -d 'Start the embedded demo backend on a free loopback port and point this run at it.'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx auth status" o output' -s 'o' -l 'output' -d 'Output format: json, ndjson, raw or table (default: json for bodies, ndjson for streams).' -rfka 'json ndjson raw table'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx auth status" select' -l 'select' -d 'Print only the values at this jq-style path, e.g. .data.items[].id' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx auth status" r raw-output' -s 'r' -l 'raw-output' -d 'Print string results as their text, without JSON quotes (like jq -r).'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx auth status"' -s 'H' -l 'header' -d 'Add a header, \'Name: value\' (repeatable; \'Name:\' removes one).' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx auth status" timeout' -l 'timeout' -d 'Give up after this many seconds (all attempts together; also bounds token requests and commands).' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx auth status" connect-timeout' -l 'connect-timeout' -d 'Give up connecting after this many seconds (default 10).' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx auth status" retry' -l 'retry' -d 'Maximum attempts for retryable failures (overrides the registry).' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx auth status" no-retry' -l 'no-retry' -d 'Never retry.'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx auth status" v verbose' -s 'v' -l 'verbose' -d 'Print requests, responses and retries to stderr (secrets masked).'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx auth status" color' -l 'color' -d 'Colour: auto, always or never (auto honours NO_COLOR).' -rfka 'auto always never'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx auth status" insecure' -l 'insecure' -d 'Skip TLS certificate verification (prints a warning).'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx auth status" cacert' -l 'cacert' -d 'Trust the CA certificates in this PEM file.' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx auth status" cert' -l 'cert' -d 'gRPC mutual TLS: the client certificate chain (PEM).' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx auth status" key' -l 'key' -d 'gRPC mutual TLS: the client certificate\'s private key (PEM).' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx auth status" authority' -l 'authority' -d 'gRPC: send this :authority (and TLS server name) instead of the host.' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx auth status" max-message-size' -l 'max-message-size' -d 'gRPC: the largest message sent or received, in bytes (default 4 MiB).' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx auth status" emit-defaults' -l 'emit-defaults' -d 'gRPC: print fields that hold their default value (0, "", [], false).'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx auth status" version' -l 'version' -d 'Show the version.'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx auth status" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx auth token"' -l 'registry' -d 'A folder of registry files, or one API.json file (repeatable; default ./Endpoints, then ~/.config/apx/endpoints; env APX_REGISTRY).' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx auth token" env' -l 'env' -d 'The registry environment to call (default: the API\'s default_environment).' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx auth token" base-url' -l 'base-url' -d 'Call this base URL instead of the environment\'s.' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx auth token" demo' -l 'demo' -d 'Start the embedded demo backend on a free loopback port and point this run at it.'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx auth token" o output' -s 'o' -l 'output' -d 'Output format: json, ndjson, raw or table (default: json for bodies, ndjson for streams).' -rfka 'json ndjson raw table'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx auth token" select' -l 'select' -d 'Print only the values at this jq-style path, e.g. .data.items[].id' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx auth token" r raw-output' -s 'r' -l 'raw-output' -d 'Print string results as their text, without JSON quotes (like jq -r).'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx auth token"' -s 'H' -l 'header' -d 'Add a header, \'Name: value\' (repeatable; \'Name:\' removes one).' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx auth token" timeout' -l 'timeout' -d 'Give up after this many seconds (all attempts together; also bounds token requests and commands).' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx auth token" connect-timeout' -l 'connect-timeout' -d 'Give up connecting after this many seconds (default 10).' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx auth token" retry' -l 'retry' -d 'Maximum attempts for retryable failures (overrides the registry).' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx auth token" no-retry' -l 'no-retry' -d 'Never retry.'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx auth token" v verbose' -s 'v' -l 'verbose' -d 'Print requests, responses and retries to stderr (secrets masked).'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx auth token" color' -l 'color' -d 'Colour: auto, always or never (auto honours NO_COLOR).' -rfka 'auto always never'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx auth token" insecure' -l 'insecure' -d 'Skip TLS certificate verification (prints a warning).'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx auth token" cacert' -l 'cacert' -d 'Trust the CA certificates in this PEM file.' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx auth token" cert' -l 'cert' -d 'gRPC mutual TLS: the client certificate chain (PEM).' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx auth token" key' -l 'key' -d 'gRPC mutual TLS: the client certificate\'s private key (PEM).' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx auth token" authority' -l 'authority' -d 'gRPC: send this :authority (and TLS server name) instead of the host.' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx auth token" max-message-size' -l 'max-message-size' -d 'gRPC: the largest message sent or received, in bytes (default 4 MiB).' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx auth token" emit-defaults' -l 'emit-defaults' -d 'gRPC: print fields that hold their default value (0, "", [], false).'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx auth token" version' -l 'version' -d 'Show the version.'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx auth token" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx auth logout"' -l 'registry' -d 'A folder of registry files, or one API.json file (repeatable; default ./Endpoints, then ~/.config/apx/endpoints; env APX_REGISTRY).' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx auth logout" env' -l 'env' -d 'The registry environment to call (default: the API\'s default_environment).' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx auth logout" base-url' -l 'base-url' -d 'Call this base URL instead of the environment\'s.' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx auth logout" demo' -l 'demo' -d 'Start the embedded demo backend on a free loopback port and point this run at it.'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx auth logout" o output' -s 'o' -l 'output' -d 'Output format: json, ndjson, raw or table (default: json for bodies, ndjson for streams).' -rfka 'json ndjson raw table'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx auth logout" select' -l 'select' -d 'Print only the values at this jq-style path, e.g. .data.items[].id' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx auth logout" r raw-output' -s 'r' -l 'raw-output' -d 'Print string results as their text, without JSON quotes (like jq -r).'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx auth logout"' -s 'H' -l 'header' -d 'Add a header, \'Name: value\' (repeatable; \'Name:\' removes one).' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx auth logout" timeout' -l 'timeout' -d 'Give up after this many seconds (all attempts together; also bounds token requests and commands).' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx auth logout" connect-timeout' -l 'connect-timeout' -d 'Give up connecting after this many seconds (default 10).' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx auth logout" retry' -l 'retry' -d 'Maximum attempts for retryable failures (overrides the registry).' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx auth logout" no-retry' -l 'no-retry' -d 'Never retry.'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx auth logout" v verbose' -s 'v' -l 'verbose' -d 'Print requests, responses and retries to stderr (secrets masked).'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx auth logout" color' -l 'color' -d 'Colour: auto, always or never (auto honours NO_COLOR).' -rfka 'auto always never'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx auth logout" insecure' -l 'insecure' -d 'Skip TLS certificate verification (prints a warning).'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx auth logout" cacert' -l 'cacert' -d 'Trust the CA certificates in this PEM file.' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx auth logout" cert' -l 'cert' -d 'gRPC mutual TLS: the client certificate chain (PEM).' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx auth logout" key' -l 'key' -d 'gRPC mutual TLS: the client certificate\'s private key (PEM).' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx auth logout" authority' -l 'authority' -d 'gRPC: send this :authority (and TLS server name) instead of the host.' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx auth logout" max-message-size' -l 'max-message-size' -d 'gRPC: the largest message sent or received, in bytes (default 4 MiB).' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx auth logout" emit-defaults' -l 'emit-defaults' -d 'gRPC: print fields that hold their default value (0, "", [], false).'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx auth logout" version' -l 'version' -d 'Show the version.'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx auth logout" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx run"' -l 'registry' -d 'A folder of registry files, or one API.json file (repeatable; default ./Endpoints, then ~/.config/apx/endpoints; env APX_REGISTRY).' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx run" env' -l 'env' -d 'The registry environment to call (default: the API\'s default_environment).' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx run" base-url' -l 'base-url' -d 'Call this base URL instead of the environment\'s.' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx run" demo' -l 'demo' -d 'Start the embedded demo backend on a free loopback port and point this run at it.'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx run" o output' -s 'o' -l 'output' -d 'Output format: json, ndjson, raw or table (default: json for bodies, ndjson for streams).' -rfka 'json ndjson raw table'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx run" select' -l 'select' -d 'Print only the values at this jq-style path, e.g. .data.items[].id' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx run" r raw-output' -s 'r' -l 'raw-output' -d 'Print string results as their text, without JSON quotes (like jq -r).'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx run"' -s 'H' -l 'header' -d 'Add a header, \'Name: value\' (repeatable; \'Name:\' removes one).' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx run" timeout' -l 'timeout' -d 'Give up after this many seconds (all attempts together; also bounds token requests and commands).' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx run" connect-timeout' -l 'connect-timeout' -d 'Give up connecting after this many seconds (default 10).' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx run" retry' -l 'retry' -d 'Maximum attempts for retryable failures (overrides the registry).' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx run" no-retry' -l 'no-retry' -d 'Never retry.'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx run" v verbose' -s 'v' -l 'verbose' -d 'Print requests, responses and retries to stderr (secrets masked).'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx run" color' -l 'color' -d 'Colour: auto, always or never (auto honours NO_COLOR).' -rfka 'auto always never'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx run" insecure' -l 'insecure' -d 'Skip TLS certificate verification (prints a warning).'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx run" cacert' -l 'cacert' -d 'Trust the CA certificates in this PEM file.' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx run" cert' -l 'cert' -d 'gRPC mutual TLS: the client certificate chain (PEM).' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx run" key' -l 'key' -d 'gRPC mutual TLS: the client certificate\'s private key (PEM).' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx run" authority' -l 'authority' -d 'gRPC: send this :authority (and TLS server name) instead of the host.' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx run" max-message-size' -l 'max-message-size' -d 'gRPC: the largest message sent or received, in bytes (default 4 MiB).' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx run" emit-defaults' -l 'emit-defaults' -d 'gRPC: print fields that hold their default value (0, "", [], false).'
complete -c 'apx' -n '__apx_should_offer_completions_for_positional "apx run" -eq 1' -fa '(for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.\'json\';printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx run" events' -l 'events' -d 'Print every step\'s result, stream item, retry, reconnect and fallback as NDJSON on stdout.'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx run" dry-run' -l 'dry-run' -d 'Print the requests that would be sent (secrets masked) and send nothing.'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx run" test' -l 'test' -d 'Count checks passed and failed; exit 9 when any failed.'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx run"' -l 'report' -d 'Write a report: junit FILE.' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx run" resume' -l 'resume' -d 'Resume the latest unfinished run of this recipe (or the RUN_ID given among the inputs).'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx run" version' -l 'version' -d 'Show the version.'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx run" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx help" version' -l 'version' -d 'Show the version.'