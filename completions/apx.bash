#!/bin/bash

__apx_cursor_index_in_current_word() {
    local remaining="${COMP_LINE}"

    local word
    for word in "${COMP_WORDS[@]::COMP_CWORD}"; do
        remaining="${remaining##*([[:space:]])"${word}"*([[:space:]])}"
    done

    local -ir index="$((COMP_POINT - ${#COMP_LINE} + ${#remaining}))"
    if [[ "${index}" -le 0 ]]; then
        printf 0
    else
        printf %s "${index}"
    fi
}

# positional arguments:
#
# - 1: the current (sub)command's count of positional arguments
#
# required variables:
#
# - repeating_flags: the repeating flags that the current (sub)command can accept
# - non_repeating_flags: the non-repeating flags that the current (sub)command can accept
# - repeating_options: the repeating options that the current (sub)command can accept
# - non_repeating_options: the non-repeating options that the current (sub)command can accept
# - positional_number: value ignored
# - unparsed_words: unparsed words from the current command line
#
# modified variables:
#
# - non_repeating_flags: remove flags for this (sub)command that are already on the command line
# - non_repeating_options: remove options for this (sub)command that are already on the command line
# - positional_number: set to the current positional number
# - unparsed_words: remove all flags, options, and option values for this (sub)command
__apx_offer_flags_options() {
    local -ir positional_count="${1}"
    positional_number=0

    local was_flag_option_terminator_seen=false
    local is_parsing_option_value=false

    local -ar unparsed_word_indices=("${!unparsed_words[@]}")
    local -i word_index
    for word_index in "${unparsed_word_indices[@]}"; do
        if "${is_parsing_option_value}"; then
            # This word is an option value:
            # Reset marker for next word iff not currently the last word
            [[ "${word_index}" -ne "${unparsed_word_indices[${#unparsed_word_indices[@]} - 1]}" ]] && is_parsing_option_value=false
            unset "unparsed_words[${word_index}]"
            # Do not process this word as a flag or an option
            continue
        fi

        local word="${unparsed_words["${word_index}"]}"
        if ! "${was_flag_option_terminator_seen}"; then
            case "${word}" in
            --)
                unset "unparsed_words[${word_index}]"
                # by itself -- is a flag/option terminator, but if it is the last word, it is the start of a completion
                if [[ "${word_index}" -ne "${unparsed_word_indices[${#unparsed_word_indices[@]} - 1]}" ]]; then
                    was_flag_option_terminator_seen=true
                fi
                continue
                ;;
            -*)
                # ${word} is a flag or an option
                # If ${word} is an option, mark that the next word to be parsed is an option value
                local option
                for option in "${repeating_options[@]}" "${non_repeating_options[@]}"; do
                    [[ "${word}" = "${option}" ]] && is_parsing_option_value=true && break
                done

                # Remove ${word} from ${non_repeating_flags} or ${non_repeating_options} so it isn't offered again
                local not_found=true
                local -i index
                for index in "${!non_repeating_flags[@]}"; do
                    if [[ "${non_repeating_flags[${index}]}" = "${word}" ]]; then
                        unset "non_repeating_flags[${index}]"
                        non_repeating_flags=("${non_repeating_flags[@]}")
                        not_found=false
                        break
                    fi
                done
                if "${not_found}"; then
                    for index in "${!non_repeating_flags[@]}"; do
                        if [[ "${non_repeating_flags[${index}]}" = "${word}" ]]; then
                            unset "non_repeating_flags[${index}]"
                            non_repeating_flags=("${non_repeating_flags[@]}")
                            break
                        fi
                    done
                fi
                unset "unparsed_words[${word_index}]"
                continue
                ;;
            esac
        fi

        # ${word} is neither a flag, nor an option, nor an option value
        if [[ "${positional_number}" -lt "${positional_count}" || "${positional_count}" -lt 0 ]]; then
            # ${word} is a positional
            ((positional_number++))
            unset "unparsed_words[${word_index}]"
        else
            if [[ -z "${word}" ]]; then
                # Could be completing a flag, option, or subcommand
                positional_number=-1
            else
                # ${word} is a subcommand or invalid, so stop processing this (sub)command
                positional_number=-2
            fi
            break
        fi
    done

    unparsed_words=("${unparsed_words[@]}")

    if\
        ! "${was_flag_option_terminator_seen}"\
        && ! "${is_parsing_option_value}"\
        && [[ ("${cur}" = -* && "${positional_number}" -ge 0) || "${positional_number}" -eq -1 ]]
    then
        COMPREPLY+=($(compgen -W "${repeating_flags[*]} ${non_repeating_flags[*]} ${repeating_options[*]} ${non_repeating_options[*]}" -- "${cur}"))
    fi
}

__apx_add_completions() {
    local completion
    while IFS='' read -r completion; do
        COMPREPLY+=("${completion}")
    done < <(IFS=$'\n' compgen "${@}" -- "${cur}")
}

__apx_custom_complete() {
    if [[ -n "${cur}" || -z ${COMP_WORDS[${COMP_CWORD}]} || "${COMP_LINE:${COMP_POINT}:1}" != ' ' ]]; then
        local -ar words=("${COMP_WORDS[@]}")
    else
        local -ar words=("${COMP_WORDS[@]::${COMP_CWORD}}" '' "${COMP_WORDS[@]:${COMP_CWORD}}")
    fi

    "${COMP_WORDS[0]}" "${@}" "${words[@]}"
}

_apx() {
    local state
    state="$(shopt -p;shopt -po)"
    trap "${state//$'\n'/;}" RETURN
    shopt -s extglob
    set +o history +o posix

    local -xr SAP_SHELL=bash
    local -x SAP_SHELL_VERSION
    SAP_SHELL_VERSION="$(IFS='.';printf %s "${BASH_VERSINFO[*]}")"
    local -r SAP_SHELL_VERSION

    local -r cur="${2}"
    local -r prev="${3}"

    local -i positional_number
    local -a unparsed_words=("${COMP_WORDS[@]:1:${COMP_CWORD}}")

    local -a repeating_flags=()
    local -a non_repeating_flags=(--version -h --help)
    local -a repeating_options=()
    local -a non_repeating_options=()
    __apx_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    call|list|describe|validate|import|demo|mock|completions|manual|config|auth|run|session|help)
        # Offer subcommand argument completions
        "_apx_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'call list describe validate import demo mock completions manual config auth run session help' -- "${cur}"))
        ;;
    esac
}

_apx_call() {
    repeating_flags=()
    non_repeating_flags=(--demo -r --raw-output --no-retry -v --verbose --insecure --http1.1 --emit-defaults --form --token-stdin --no-auth --sse --all --continue -i --include --dry-run --curl --show-secrets --allow-partial --raw-response --version -h --help)
    repeating_options=(--registry -H --header --until-event --subprotocol --proto --import-path)
    non_repeating_options=(--env --base-url -o --output --select --color --timeout --connect-timeout --retry --cacert --cert --key --proxy --noproxy --authority --max-message-size -d --data -X --request -a --auth --bearer --max-events --max-items --max-pages --save -O --output-file --max-messages --until --reconnect-delay --graphql --operation --graphql-transport --max-document-size --protoset --session --har)
    __apx_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--registry')
        __apx_add_completions -o plusdirs -fX '!*.@(json)'
        return
        ;;
    '--env')
        __apx_add_completions -W "$(__apx_custom_complete ---completion call -- --env "${COMP_CWORD}" "$(__apx_cursor_index_in_current_word)")"
        return
        ;;
    '--base-url')
        return
        ;;
    '-o'|'--output')
        __apx_add_completions -W 'json'$'\n''ndjson'$'\n''raw'$'\n''table'
        return
        ;;
    '--select')
        return
        ;;
    '--color')
        __apx_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '-H'|'--header')
        return
        ;;
    '--timeout')
        return
        ;;
    '--connect-timeout')
        return
        ;;
    '--retry')
        return
        ;;
    '--cacert')
        return
        ;;
    '--cert')
        return
        ;;
    '--key')
        return
        ;;
    '--proxy')
        return
        ;;
    '--noproxy')
        return
        ;;
    '--authority')
        return
        ;;
    '--max-message-size')
        return
        ;;
    '-d'|'--data')
        __apx_add_completions -W "$(__apx_custom_complete ---completion call -- --data "${COMP_CWORD}" "$(__apx_cursor_index_in_current_word)")"
        return
        ;;
    '-X'|'--request')
        return
        ;;
    '-a'|'--auth')
        return
        ;;
    '--bearer')
        return
        ;;
    '--max-events')
        return
        ;;
    '--until-event')
        return
        ;;
    '--max-items')
        return
        ;;
    '--max-pages')
        return
        ;;
    '--save')
        return
        ;;
    '-O'|'--output-file')
        return
        ;;
    '--subprotocol')
        return
        ;;
    '--max-messages')
        return
        ;;
    '--until')
        return
        ;;
    '--reconnect-delay')
        return
        ;;
    '--graphql')
        return
        ;;
    '--operation')
        return
        ;;
    '--graphql-transport')
        return
        ;;
    '--max-document-size')
        return
        ;;
    '--proto')
        return
        ;;
    '--import-path')
        return
        ;;
    '--protoset')
        return
        ;;
    '--session')
        return
        ;;
    '--har')
        __apx_add_completions -o plusdirs -fX '!*.@(har)'
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __apx_add_completions -W "$(__apx_custom_complete ---completion call -- positional@0 "${COMP_CWORD}" "$(__apx_cursor_index_in_current_word)")"
        return
        ;;
    *)
        __apx_add_completions -W "$(__apx_custom_complete ---completion call -- positional@1 "${COMP_CWORD}" "$(__apx_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_apx_list() {
    repeating_flags=()
    non_repeating_flags=(--demo -r --raw-output --no-retry -v --verbose --insecure --http1.1 --emit-defaults --graphql --version -h --help)
    repeating_options=(--registry -H --header --proto --import-path)
    non_repeating_options=(--env --base-url -o --output --select --color --timeout --connect-timeout --retry --cacert --cert --key --proxy --noproxy --authority --max-message-size --grpc --protoset --schema)
    __apx_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--registry')
        __apx_add_completions -o plusdirs -fX '!*.@(json)'
        return
        ;;
    '--env')
        __apx_add_completions -W "$(__apx_custom_complete ---completion list -- --env "${COMP_CWORD}" "$(__apx_cursor_index_in_current_word)")"
        return
        ;;
    '--base-url')
        return
        ;;
    '-o'|'--output')
        __apx_add_completions -W 'json'$'\n''ndjson'$'\n''raw'$'\n''table'
        return
        ;;
    '--select')
        return
        ;;
    '--color')
        __apx_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '-H'|'--header')
        return
        ;;
    '--timeout')
        return
        ;;
    '--connect-timeout')
        return
        ;;
    '--retry')
        return
        ;;
    '--cacert')
        return
        ;;
    '--cert')
        return
        ;;
    '--key')
        return
        ;;
    '--proxy')
        return
        ;;
    '--noproxy')
        return
        ;;
    '--authority')
        return
        ;;
    '--max-message-size')
        return
        ;;
    '--grpc')
        return
        ;;
    '--proto')
        return
        ;;
    '--import-path')
        return
        ;;
    '--protoset')
        return
        ;;
    '--schema')
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __apx_add_completions -W "$(__apx_custom_complete ---completion list -- positional@0 "${COMP_CWORD}" "$(__apx_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_apx_describe() {
    repeating_flags=()
    non_repeating_flags=(--demo -r --raw-output --no-retry -v --verbose --insecure --http1.1 --emit-defaults --version -h --help)
    repeating_options=(--registry -H --header --proto --import-path)
    non_repeating_options=(--env --base-url -o --output --select --color --timeout --connect-timeout --retry --cacert --cert --key --proxy --noproxy --authority --max-message-size --protoset --graphql --schema)
    __apx_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--registry')
        __apx_add_completions -o plusdirs -fX '!*.@(json)'
        return
        ;;
    '--env')
        __apx_add_completions -W "$(__apx_custom_complete ---completion describe -- --env "${COMP_CWORD}" "$(__apx_cursor_index_in_current_word)")"
        return
        ;;
    '--base-url')
        return
        ;;
    '-o'|'--output')
        __apx_add_completions -W 'json'$'\n''ndjson'$'\n''raw'$'\n''table'
        return
        ;;
    '--select')
        return
        ;;
    '--color')
        __apx_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '-H'|'--header')
        return
        ;;
    '--timeout')
        return
        ;;
    '--connect-timeout')
        return
        ;;
    '--retry')
        return
        ;;
    '--cacert')
        return
        ;;
    '--cert')
        return
        ;;
    '--key')
        return
        ;;
    '--proxy')
        return
        ;;
    '--noproxy')
        return
        ;;
    '--authority')
        return
        ;;
    '--max-message-size')
        return
        ;;
    '--proto')
        return
        ;;
    '--import-path')
        return
        ;;
    '--protoset')
        return
        ;;
    '--graphql')
        return
        ;;
    '--schema')
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __apx_add_completions -W "$(__apx_custom_complete ---completion describe -- positional@0 "${COMP_CWORD}" "$(__apx_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_apx_validate() {
    repeating_flags=()
    non_repeating_flags=(-r --raw-output --version -h --help)
    repeating_options=(--registry)
    non_repeating_options=(-o --output --select --color)
    __apx_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--registry')
        __apx_add_completions -o plusdirs -fX '!*.@(json)'
        return
        ;;
    '-o'|'--output')
        __apx_add_completions -W 'json'$'\n''ndjson'$'\n''raw'$'\n''table'
        return
        ;;
    '--select')
        return
        ;;
    '--color')
        __apx_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    *)
        __apx_add_completions -o plusdirs -fX '!*.@(json)'
        return
        ;;
    esac
}

_apx_import() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __apx_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    openapi|grpc|graphql)
        # Offer subcommand argument completions
        "_apx_import_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'openapi grpc graphql' -- "${cur}"))
        ;;
    esac
}

_apx_import_openapi() {
    repeating_flags=()
    non_repeating_flags=(--force --allow-remote-refs --insecure --version -h --help)
    repeating_options=()
    non_repeating_options=(--api --out --timeout --cacert --proxy --noproxy)
    __apx_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--api')
        return
        ;;
    '--out')
        __apx_add_completions -d
        return
        ;;
    '--timeout')
        return
        ;;
    '--cacert')
        return
        ;;
    '--proxy')
        return
        ;;
    '--noproxy')
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __apx_add_completions -o plusdirs -fX '!*.@(json|yaml|yml|gz)'
        return
        ;;
    esac
}

_apx_import_grpc() {
    repeating_flags=()
    non_repeating_flags=(--force --insecure --version -h --help)
    repeating_options=(-I --import-path)
    non_repeating_options=(--api --out --timeout --cacert --proxy --noproxy)
    __apx_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--api')
        return
        ;;
    '--out')
        __apx_add_completions -d
        return
        ;;
    '-I'|'--import-path')
        __apx_add_completions -d
        return
        ;;
    '--timeout')
        return
        ;;
    '--cacert')
        return
        ;;
    '--proxy')
        return
        ;;
    '--noproxy')
        return
        ;;
    esac
}

_apx_import_graphql() {
    repeating_flags=()
    non_repeating_flags=(--force --insecure --version -h --help)
    repeating_options=(-H --header)
    non_repeating_options=(--api --out --depth --timeout --cacert --proxy --noproxy)
    __apx_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--api')
        return
        ;;
    '--out')
        __apx_add_completions -d
        return
        ;;
    '--depth')
        return
        ;;
    '-H'|'--header')
        return
        ;;
    '--timeout')
        return
        ;;
    '--cacert')
        return
        ;;
    '--proxy')
        return
        ;;
    '--noproxy')
        return
        ;;
    esac
}

_apx_demo() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=(--port --grpc-port --token-lifetime --grpc-tls-cert --grpc-tls-key --grpc-client-ca)
    __apx_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--port')
        return
        ;;
    '--grpc-port')
        return
        ;;
    '--token-lifetime')
        return
        ;;
    '--grpc-tls-cert')
        return
        ;;
    '--grpc-tls-key')
        return
        ;;
    '--grpc-client-ca')
        return
        ;;
    esac
}

_apx_mock() {
    repeating_flags=()
    non_repeating_flags=(--allow-remote-refs --full-speed --insecure --stateful --version -h --help)
    repeating_options=(--registry --replay)
    non_repeating_options=(--openapi --record --upstream --grpc-upstream --timeout --cacert --proxy --noproxy --port --grpc-port --host --seed --latency --fail-rate --fail-status --drop-every --drop-mode --sse-events --token-lifetime --max-generated-size)
    __apx_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--registry')
        __apx_add_completions -o plusdirs -fX '!*.@(json)'
        return
        ;;
    '--openapi')
        __apx_add_completions -o plusdirs -fX '!*.@(json|yaml|yml|gz)'
        return
        ;;
    '--replay')
        __apx_add_completions -o plusdirs -fX '!*.@(har)'
        return
        ;;
    '--record')
        __apx_add_completions -d
        return
        ;;
    '--upstream')
        return
        ;;
    '--grpc-upstream')
        return
        ;;
    '--timeout')
        return
        ;;
    '--cacert')
        return
        ;;
    '--proxy')
        return
        ;;
    '--noproxy')
        return
        ;;
    '--port')
        return
        ;;
    '--grpc-port')
        return
        ;;
    '--host')
        return
        ;;
    '--seed')
        return
        ;;
    '--latency')
        return
        ;;
    '--fail-rate')
        return
        ;;
    '--fail-status')
        return
        ;;
    '--drop-every')
        return
        ;;
    '--drop-mode')
        return
        ;;
    '--sse-events')
        return
        ;;
    '--token-lifetime')
        return
        ;;
    '--max-generated-size')
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    *)
        __apx_add_completions -W "$(__apx_custom_complete ---completion mock -- positional@0 "${COMP_CWORD}" "$(__apx_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_apx_completions() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __apx_offer_flags_options 1
}

_apx_manual() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __apx_offer_flags_options 0
}

_apx_config() {
    repeating_flags=()
    non_repeating_flags=(--demo -r --raw-output --no-retry -v --verbose --insecure --http1.1 --emit-defaults --version -h --help)
    repeating_options=(--registry -H --header)
    non_repeating_options=(--env --base-url -o --output --select --color --timeout --connect-timeout --retry --cacert --cert --key --proxy --noproxy --authority --max-message-size)
    __apx_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--registry')
        __apx_add_completions -o plusdirs -fX '!*.@(json)'
        return
        ;;
    '--env')
        __apx_add_completions -W "$(__apx_custom_complete ---completion config -- --env "${COMP_CWORD}" "$(__apx_cursor_index_in_current_word)")"
        return
        ;;
    '--base-url')
        return
        ;;
    '-o'|'--output')
        __apx_add_completions -W 'json'$'\n''ndjson'$'\n''raw'$'\n''table'
        return
        ;;
    '--select')
        return
        ;;
    '--color')
        __apx_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '-H'|'--header')
        return
        ;;
    '--timeout')
        return
        ;;
    '--connect-timeout')
        return
        ;;
    '--retry')
        return
        ;;
    '--cacert')
        return
        ;;
    '--cert')
        return
        ;;
    '--key')
        return
        ;;
    '--proxy')
        return
        ;;
    '--noproxy')
        return
        ;;
    '--authority')
        return
        ;;
    '--max-message-size')
        return
        ;;
    esac
}

_apx_auth() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __apx_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    login|status|token|logout|set-secret|delete-secret)
        # Offer subcommand argument completions
        "_apx_auth_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'login status token logout set-secret delete-secret' -- "${cur}"))
        ;;
    esac
}

_apx_auth_login() {
    repeating_flags=()
    non_repeating_flags=(--demo -r --raw-output --no-retry -v --verbose --insecure --http1.1 --emit-defaults --no-browser --version -h --help)
    repeating_options=(--registry -H --header)
    non_repeating_options=(--env --base-url -o --output --select --color --timeout --connect-timeout --retry --cacert --cert --key --proxy --noproxy --authority --max-message-size)
    __apx_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--registry')
        __apx_add_completions -o plusdirs -fX '!*.@(json)'
        return
        ;;
    '--env')
        __apx_add_completions -W "$(__apx_custom_complete ---completion auth login -- --env "${COMP_CWORD}" "$(__apx_cursor_index_in_current_word)")"
        return
        ;;
    '--base-url')
        return
        ;;
    '-o'|'--output')
        __apx_add_completions -W 'json'$'\n''ndjson'$'\n''raw'$'\n''table'
        return
        ;;
    '--select')
        return
        ;;
    '--color')
        __apx_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '-H'|'--header')
        return
        ;;
    '--timeout')
        return
        ;;
    '--connect-timeout')
        return
        ;;
    '--retry')
        return
        ;;
    '--cacert')
        return
        ;;
    '--cert')
        return
        ;;
    '--key')
        return
        ;;
    '--proxy')
        return
        ;;
    '--noproxy')
        return
        ;;
    '--authority')
        return
        ;;
    '--max-message-size')
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __apx_add_completions -W "$(__apx_custom_complete ---completion auth login -- positional@0 "${COMP_CWORD}" "$(__apx_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_apx_auth_status() {
    repeating_flags=()
    non_repeating_flags=(--demo -r --raw-output --no-retry -v --verbose --insecure --http1.1 --emit-defaults --version -h --help)
    repeating_options=(--registry -H --header)
    non_repeating_options=(--env --base-url -o --output --select --color --timeout --connect-timeout --retry --cacert --cert --key --proxy --noproxy --authority --max-message-size)
    __apx_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--registry')
        __apx_add_completions -o plusdirs -fX '!*.@(json)'
        return
        ;;
    '--env')
        __apx_add_completions -W "$(__apx_custom_complete ---completion auth status -- --env "${COMP_CWORD}" "$(__apx_cursor_index_in_current_word)")"
        return
        ;;
    '--base-url')
        return
        ;;
    '-o'|'--output')
        __apx_add_completions -W 'json'$'\n''ndjson'$'\n''raw'$'\n''table'
        return
        ;;
    '--select')
        return
        ;;
    '--color')
        __apx_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '-H'|'--header')
        return
        ;;
    '--timeout')
        return
        ;;
    '--connect-timeout')
        return
        ;;
    '--retry')
        return
        ;;
    '--cacert')
        return
        ;;
    '--cert')
        return
        ;;
    '--key')
        return
        ;;
    '--proxy')
        return
        ;;
    '--noproxy')
        return
        ;;
    '--authority')
        return
        ;;
    '--max-message-size')
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __apx_add_completions -W "$(__apx_custom_complete ---completion auth status -- positional@0 "${COMP_CWORD}" "$(__apx_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_apx_auth_token() {
    repeating_flags=()
    non_repeating_flags=(--demo -r --raw-output --no-retry -v --verbose --insecure --http1.1 --emit-defaults --version -h --help)
    repeating_options=(--registry -H --header)
    non_repeating_options=(--env --base-url -o --output --select --color --timeout --connect-timeout --retry --cacert --cert --key --proxy --noproxy --authority --max-message-size)
    __apx_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--registry')
        __apx_add_completions -o plusdirs -fX '!*.@(json)'
        return
        ;;
    '--env')
        __apx_add_completions -W "$(__apx_custom_complete ---completion auth token -- --env "${COMP_CWORD}" "$(__apx_cursor_index_in_current_word)")"
        return
        ;;
    '--base-url')
        return
        ;;
    '-o'|'--output')
        __apx_add_completions -W 'json'$'\n''ndjson'$'\n''raw'$'\n''table'
        return
        ;;
    '--select')
        return
        ;;
    '--color')
        __apx_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '-H'|'--header')
        return
        ;;
    '--timeout')
        return
        ;;
    '--connect-timeout')
        return
        ;;
    '--retry')
        return
        ;;
    '--cacert')
        return
        ;;
    '--cert')
        return
        ;;
    '--key')
        return
        ;;
    '--proxy')
        return
        ;;
    '--noproxy')
        return
        ;;
    '--authority')
        return
        ;;
    '--max-message-size')
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __apx_add_completions -W "$(__apx_custom_complete ---completion auth token -- positional@0 "${COMP_CWORD}" "$(__apx_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_apx_auth_logout() {
    repeating_flags=()
    non_repeating_flags=(--demo -r --raw-output --no-retry -v --verbose --insecure --http1.1 --emit-defaults --no-revoke --version -h --help)
    repeating_options=(--registry -H --header)
    non_repeating_options=(--env --base-url -o --output --select --color --timeout --connect-timeout --retry --cacert --cert --key --proxy --noproxy --authority --max-message-size)
    __apx_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--registry')
        __apx_add_completions -o plusdirs -fX '!*.@(json)'
        return
        ;;
    '--env')
        __apx_add_completions -W "$(__apx_custom_complete ---completion auth logout -- --env "${COMP_CWORD}" "$(__apx_cursor_index_in_current_word)")"
        return
        ;;
    '--base-url')
        return
        ;;
    '-o'|'--output')
        __apx_add_completions -W 'json'$'\n''ndjson'$'\n''raw'$'\n''table'
        return
        ;;
    '--select')
        return
        ;;
    '--color')
        __apx_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '-H'|'--header')
        return
        ;;
    '--timeout')
        return
        ;;
    '--connect-timeout')
        return
        ;;
    '--retry')
        return
        ;;
    '--cacert')
        return
        ;;
    '--cert')
        return
        ;;
    '--key')
        return
        ;;
    '--proxy')
        return
        ;;
    '--noproxy')
        return
        ;;
    '--authority')
        return
        ;;
    '--max-message-size')
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __apx_add_completions -W "$(__apx_custom_complete ---completion auth logout -- positional@0 "${COMP_CWORD}" "$(__apx_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_apx_auth_set-secret() {
    repeating_flags=()
    non_repeating_flags=(--demo -r --raw-output --no-retry -v --verbose --insecure --http1.1 --emit-defaults --version -h --help)
    repeating_options=(--registry -H --header)
    non_repeating_options=(--env --base-url -o --output --select --color --timeout --connect-timeout --retry --cacert --cert --key --proxy --noproxy --authority --max-message-size)
    __apx_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--registry')
        __apx_add_completions -o plusdirs -fX '!*.@(json)'
        return
        ;;
    '--env')
        __apx_add_completions -W "$(__apx_custom_complete ---completion auth set-secret -- --env "${COMP_CWORD}" "$(__apx_cursor_index_in_current_word)")"
        return
        ;;
    '--base-url')
        return
        ;;
    '-o'|'--output')
        __apx_add_completions -W 'json'$'\n''ndjson'$'\n''raw'$'\n''table'
        return
        ;;
    '--select')
        return
        ;;
    '--color')
        __apx_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '-H'|'--header')
        return
        ;;
    '--timeout')
        return
        ;;
    '--connect-timeout')
        return
        ;;
    '--retry')
        return
        ;;
    '--cacert')
        return
        ;;
    '--cert')
        return
        ;;
    '--key')
        return
        ;;
    '--proxy')
        return
        ;;
    '--noproxy')
        return
        ;;
    '--authority')
        return
        ;;
    '--max-message-size')
        return
        ;;
    esac
}

_apx_auth_delete-secret() {
    repeating_flags=()
    non_repeating_flags=(--demo -r --raw-output --no-retry -v --verbose --insecure --http1.1 --emit-defaults --version -h --help)
    repeating_options=(--registry -H --header)
    non_repeating_options=(--env --base-url -o --output --select --color --timeout --connect-timeout --retry --cacert --cert --key --proxy --noproxy --authority --max-message-size)
    __apx_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--registry')
        __apx_add_completions -o plusdirs -fX '!*.@(json)'
        return
        ;;
    '--env')
        __apx_add_completions -W "$(__apx_custom_complete ---completion auth delete-secret -- --env "${COMP_CWORD}" "$(__apx_cursor_index_in_current_word)")"
        return
        ;;
    '--base-url')
        return
        ;;
    '-o'|'--output')
        __apx_add_completions -W 'json'$'\n''ndjson'$'\n''raw'$'\n''table'
        return
        ;;
    '--select')
        return
        ;;
    '--color')
        __apx_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '-H'|'--header')
        return
        ;;
    '--timeout')
        return
        ;;
    '--connect-timeout')
        return
        ;;
    '--retry')
        return
        ;;
    '--cacert')
        return
        ;;
    '--cert')
        return
        ;;
    '--key')
        return
        ;;
    '--proxy')
        return
        ;;
    '--noproxy')
        return
        ;;
    '--authority')
        return
        ;;
    '--max-message-size')
        return
        ;;
    esac
}

_apx_run() {
    repeating_flags=()
    non_repeating_flags=(--demo -r --raw-output --no-retry -v --verbose --insecure --http1.1 --emit-defaults --events --dry-run --test --mock --resume --version -h --help)
    repeating_options=(--registry -H --header --report)
    non_repeating_options=(--env --base-url -o --output --select --color --timeout --connect-timeout --retry --cacert --cert --key --proxy --noproxy --authority --max-message-size --session --har)
    __apx_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--registry')
        __apx_add_completions -o plusdirs -fX '!*.@(json)'
        return
        ;;
    '--env')
        __apx_add_completions -W "$(__apx_custom_complete ---completion run -- --env "${COMP_CWORD}" "$(__apx_cursor_index_in_current_word)")"
        return
        ;;
    '--base-url')
        return
        ;;
    '-o'|'--output')
        __apx_add_completions -W 'json'$'\n''ndjson'$'\n''raw'$'\n''table'
        return
        ;;
    '--select')
        return
        ;;
    '--color')
        __apx_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    '-H'|'--header')
        return
        ;;
    '--timeout')
        return
        ;;
    '--connect-timeout')
        return
        ;;
    '--retry')
        return
        ;;
    '--cacert')
        return
        ;;
    '--cert')
        return
        ;;
    '--key')
        return
        ;;
    '--proxy')
        return
        ;;
    '--noproxy')
        return
        ;;
    '--authority')
        return
        ;;
    '--max-message-size')
        return
        ;;
    '--report')
        return
        ;;
    '--session')
        return
        ;;
    '--har')
        __apx_add_completions -o plusdirs -fX '!*.@(har)'
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __apx_add_completions -o plusdirs -fX '!*.@(json)'
        return
        ;;
    *)
        __apx_add_completions -W "$(__apx_custom_complete ---completion run -- positional@1 "${COMP_CWORD}" "$(__apx_cursor_index_in_current_word)")"
        return
        ;;
    esac
}

_apx_session() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __apx_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    list|show|clear)
        # Offer subcommand argument completions
        "_apx_session_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'list show clear' -- "${cur}"))
        ;;
    esac
}

_apx_session_list() {
    repeating_flags=()
    non_repeating_flags=(-r --raw-output --version -h --help)
    repeating_options=()
    non_repeating_options=(-o --output --select --color)
    __apx_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '-o'|'--output')
        __apx_add_completions -W 'json'$'\n''ndjson'$'\n''raw'$'\n''table'
        return
        ;;
    '--select')
        return
        ;;
    '--color')
        __apx_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    esac
}

_apx_session_show() {
    repeating_flags=()
    non_repeating_flags=(-r --raw-output --version -h --help)
    repeating_options=()
    non_repeating_options=(-o --output --select --color)
    __apx_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '-o'|'--output')
        __apx_add_completions -W 'json'$'\n''ndjson'$'\n''raw'$'\n''table'
        return
        ;;
    '--select')
        return
        ;;
    '--color')
        __apx_add_completions -W 'auto'$'\n''always'$'\n''never'
        return
        ;;
    esac
}

_apx_session_clear() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __apx_offer_flags_options 1
}

_apx_help() {
    repeating_flags=()
    non_repeating_flags=(--version)
    repeating_options=()
    non_repeating_options=()
    __apx_offer_flags_options -1
}

complete -o filenames -F _apx apx
# apx: an item (name=, csv=@) or a path after @ is one word the user goes on typing:
# insert it with = and @ as they are (-o filenames would escape them) but what the shell
# splits escaped (a space in a file name: %q), and when it ends in =, @ or /, without a
# space after it.
__apx_complete_items() {
    _apx "${@}"
    local candidate index
    for candidate in "${COMPREPLY[@]}"; do
        if [[ "${candidate}" == *=* || "${candidate}" == @* ]]; then
            compopt +o filenames 2>/dev/null
            for index in "${!COMPREPLY[@]}"; do
                printf -v "COMPREPLY[${index}]" '%q' "${COMPREPLY[${index}]}"
            done
            if [[ "${#COMPREPLY[@]}" -eq 1 && "${COMPREPLY[0]}" == *[=@/] ]]; then
                compopt -o nospace 2>/dev/null
            fi
            break
        fi
    done
}

complete -o filenames -F __apx_complete_items apx
