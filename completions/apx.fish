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
            __apx_parse_subcommand -r 2 'registry=+' 'env=' 'base-url=' 'demo' 'o/output=' 'select=' 'H/header=+' 'timeout=' 'retry=' 'no-retry' 'v/verbose' 'color=' 'insecure' 'cacert=' 'd/data=' 'max-events=' 'version' 'h/help'
        case 'list'
            __apx_parse_subcommand 1 'registry=+' 'env=' 'base-url=' 'demo' 'o/output=' 'select=' 'H/header=+' 'timeout=' 'retry=' 'no-retry' 'v/verbose' 'color=' 'insecure' 'cacert=' 'version' 'h/help'
        case 'describe'
            __apx_parse_subcommand 1 'registry=+' 'env=' 'base-url=' 'demo' 'o/output=' 'select=' 'H/header=+' 'timeout=' 'retry=' 'no-retry' 'v/verbose' 'color=' 'insecure' 'cacert=' 'version' 'h/help'
        case 'validate'
            __apx_parse_subcommand -r 1 'registry=+' 'env=' 'base-url=' 'demo' 'o/output=' 'select=' 'H/header=+' 'timeout=' 'retry=' 'no-retry' 'v/verbose' 'color=' 'insecure' 'cacert=' 'version' 'h/help'
        case 'demo'
            __apx_parse_subcommand 0 'port=' 'grpc-port=' 'token-lifetime=' 'version' 'h/help'
        case 'completions'
            __apx_parse_subcommand 1 'version' 'h/help'
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
complete -c 'apx' -n '__apx_should_offer_completions_for_positional "apx" -eq 1' -fa 'call' -d 'Call one endpoint from the registry and print the result as JSON.'
complete -c 'apx' -n '__apx_should_offer_completions_for_positional "apx" -eq 1' -fa 'list' -d 'List the registry\'s APIs, or one API\'s endpoints.'
complete -c 'apx' -n '__apx_should_offer_completions_for_positional "apx" -eq 1' -fa 'describe' -d 'Show an endpoint\'s parameters and an example call, as JSON.'
complete -c 'apx' -n '__apx_should_offer_completions_for_positional "apx" -eq 1' -fa 'validate' -d 'Check registry files; print file:line:column errors and exit 3 when any is invalid.'
complete -c 'apx' -n '__apx_should_offer_completions_for_positional "apx" -eq 1' -fa 'demo' -d 'Run the embedded demo backend (books, gifs, classnotes gRPC) on 127.0.0.1 until Ctrl-C.'
complete -c 'apx' -n '__apx_should_offer_completions_for_positional "apx" -eq 1' -fa 'completions' -d 'Print a shell completion script (bash, zsh or fish).'
complete -c 'apx' -n '__apx_should_offer_completions_for_positional "apx" -eq 1' -fa 'help' -d 'Show subcommand help information.'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx call"' -l 'registry' -d 'A folder of registry files (repeatable; default ./Endpoints, then ~/.config/apx/endpoints; env APX_REGISTRY).' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx call" env' -l 'env' -d 'The registry environment to call (default: the API\'s default_environment).' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx call" base-url' -l 'base-url' -d 'Call this base URL instead of the environment\'s.' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx call" demo' -l 'demo' -d 'Start the embedded demo backend on a free loopback port and point this run at it.'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx call" o output' -s 'o' -l 'output' -d 'Output format: json, ndjson, raw or table (default: json for bodies, ndjson for streams).' -rfka 'json ndjson raw table'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx call" select' -l 'select' -d 'Print only the values at this jq-style path, e.g. .data.items[].id' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx call"' -s 'H' -l 'header' -d 'Add a header, \'Name: value\' (repeatable; \'Name:\' removes one).' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx call" timeout' -l 'timeout' -d 'Give up after this many seconds (all attempts together).' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx call" retry' -l 'retry' -d 'Maximum attempts for retryable failures (overrides the registry).' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx call" no-retry' -l 'no-retry' -d 'Never retry.'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx call" v verbose' -s 'v' -l 'verbose' -d 'Print requests, responses and retries to stderr (secrets masked).'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx call" color' -l 'color' -d 'Colour: auto, always or never (auto honours NO_COLOR).' -rfka 'auto always never'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx call" insecure' -l 'insecure' -d 'Skip TLS certificate verification (prints a warning).'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx call" cacert' -l 'cacert' -d 'Trust the CA certificates in this PEM file.' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_positional "apx call" -eq 1' -fka '(__apx_custom_completion ---completion call -- positional@0 (count (__apx_tokens -pc)) (__apx_tokens -tC))'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx call" d data' -s 'd' -l 'data' -d 'The request body: JSON text, @file or @- for stdin.' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx call" max-events' -l 'max-events' -d 'Stop a stream after this many events or messages.' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx call" version' -l 'version' -d 'Show the version.'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx call" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx list"' -l 'registry' -d 'A folder of registry files (repeatable; default ./Endpoints, then ~/.config/apx/endpoints; env APX_REGISTRY).' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx list" env' -l 'env' -d 'The registry environment to call (default: the API\'s default_environment).' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx list" base-url' -l 'base-url' -d 'Call this base URL instead of the environment\'s.' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx list" demo' -l 'demo' -d 'Start the embedded demo backend on a free loopback port and point this run at it.'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx list" o output' -s 'o' -l 'output' -d 'Output format: json, ndjson, raw or table (default: json for bodies, ndjson for streams).' -rfka 'json ndjson raw table'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx list" select' -l 'select' -d 'Print only the values at this jq-style path, e.g. .data.items[].id' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx list"' -s 'H' -l 'header' -d 'Add a header, \'Name: value\' (repeatable; \'Name:\' removes one).' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx list" timeout' -l 'timeout' -d 'Give up after this many seconds (all attempts together).' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx list" retry' -l 'retry' -d 'Maximum attempts for retryable failures (overrides the registry).' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx list" no-retry' -l 'no-retry' -d 'Never retry.'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx list" v verbose' -s 'v' -l 'verbose' -d 'Print requests, responses and retries to stderr (secrets masked).'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx list" color' -l 'color' -d 'Colour: auto, always or never (auto honours NO_COLOR).' -rfka 'auto always never'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx list" insecure' -l 'insecure' -d 'Skip TLS certificate verification (prints a warning).'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx list" cacert' -l 'cacert' -d 'Trust the CA certificates in this PEM file.' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx list" version' -l 'version' -d 'Show the version.'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx list" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx describe"' -l 'registry' -d 'A folder of registry files (repeatable; default ./Endpoints, then ~/.config/apx/endpoints; env APX_REGISTRY).' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx describe" env' -l 'env' -d 'The registry environment to call (default: the API\'s default_environment).' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx describe" base-url' -l 'base-url' -d 'Call this base URL instead of the environment\'s.' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx describe" demo' -l 'demo' -d 'Start the embedded demo backend on a free loopback port and point this run at it.'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx describe" o output' -s 'o' -l 'output' -d 'Output format: json, ndjson, raw or table (default: json for bodies, ndjson for streams).' -rfka 'json ndjson raw table'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx describe" select' -l 'select' -d 'Print only the values at this jq-style path, e.g. .data.items[].id' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx describe"' -s 'H' -l 'header' -d 'Add a header, \'Name: value\' (repeatable; \'Name:\' removes one).' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx describe" timeout' -l 'timeout' -d 'Give up after this many seconds (all attempts together).' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx describe" retry' -l 'retry' -d 'Maximum attempts for retryable failures (overrides the registry).' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx describe" no-retry' -l 'no-retry' -d 'Never retry.'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx describe" v verbose' -s 'v' -l 'verbose' -d 'Print requests, responses and retries to stderr (secrets masked).'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx describe" color' -l 'color' -d 'Colour: auto, always or never (auto honours NO_COLOR).' -rfka 'auto always never'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx describe" insecure' -l 'insecure' -d 'Skip TLS certificate verification (prints a warning).'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx describe" cacert' -l 'cacert' -d 'Trust the CA certificates in this PEM file.' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_positional "apx describe" -eq 1' -fka '(__apx_custom_completion ---completion describe -- positional@0 (count (__apx_tokens -pc)) (__apx_tokens -tC))'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx describe" version' -l 'version' -d 'Show the version.'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx describe" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx validate"' -l 'registry' -d 'A folder of registry files (repeatable; default ./Endpoints, then ~/.config/apx/endpoints; env APX_REGISTRY).' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx validate" env' -l 'env' -d 'The registry environment to call (default: the API\'s default_environment).' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx validate" base-url' -l 'base-url' -d 'Call this base URL instead of the environment\'s.' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx validate" demo' -l 'demo' -d 'Start the embedded demo backend on a free loopback port and point this run at it.'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx validate" o output' -s 'o' -l 'output' -d 'Output format: json, ndjson, raw or table (default: json for bodies, ndjson for streams).' -rfka 'json ndjson raw table'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx validate" select' -l 'select' -d 'Print only the values at this jq-style path, e.g. .data.items[].id' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx validate"' -s 'H' -l 'header' -d 'Add a header, \'Name: value\' (repeatable; \'Name:\' removes one).' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx validate" timeout' -l 'timeout' -d 'Give up after this many seconds (all attempts together).' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx validate" retry' -l 'retry' -d 'Maximum attempts for retryable failures (overrides the registry).' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx validate" no-retry' -l 'no-retry' -d 'Never retry.'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx validate" v verbose' -s 'v' -l 'verbose' -d 'Print requests, responses and retries to stderr (secrets masked).'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx validate" color' -l 'color' -d 'Colour: auto, always or never (auto honours NO_COLOR).' -rfka 'auto always never'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx validate" insecure' -l 'insecure' -d 'Skip TLS certificate verification (prints a warning).'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx validate" cacert' -l 'cacert' -d 'Trust the CA certificates in this PEM file.' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_positional "apx validate" -ge 1' -fa '(for p in (string match -e -- \'*/\' (commandline -t);or printf \n)*.\'json\';printf %s\n $p;end;__fish_complete_directories (commandline -t) \'\')'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx validate" version' -l 'version' -d 'Show the version.'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx validate" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx demo" port' -l 'port' -d 'HTTP port (0 picks a free one).' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx demo" grpc-port' -l 'grpc-port' -d 'gRPC port (0 picks a free one).' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx demo" token-lifetime' -l 'token-lifetime' -d 'Lifetime of issued OAuth tokens in seconds.' -rfka ''
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx demo" version' -l 'version' -d 'Show the version.'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx demo" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx completions" version' -l 'version' -d 'Show the version.'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx completions" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'apx' -n '__apx_should_offer_completions_for_flags_or_options "apx help" version' -l 'version' -d 'Show the version.'