/// The introspection query apx sends (`apx list --graphql URL`, `apx describe URL --graphql NAME`): the
/// schema's root types, and every type with its fields, arguments, input fields and enum values.
public enum GraphQLIntrospection {
  public static let query = """
    query IntrospectionQuery {
      __schema {
        queryType { name }
        mutationType { name }
        subscriptionType { name }
        types {
          kind name description
          fields(includeDeprecated: true) {
            name description isDeprecated
            args { name description defaultValue type { ...TypeRef } }
            type { ...TypeRef }
          }
          inputFields { name description defaultValue type { ...TypeRef } }
          enumValues(includeDeprecated: true) { name description }
          possibleTypes { name }
        }
      }
    }
    fragment TypeRef on __Type {
      kind name
      ofType { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name
        ofType { kind name ofType { kind name } } } } } } }
    }
    """
}
