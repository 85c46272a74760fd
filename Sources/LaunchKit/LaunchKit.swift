// LaunchKit: module placeholder, replaced as the module's issue lands.
