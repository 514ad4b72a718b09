import Testing

@Test func moduleBuilds() {}
