@testable import LedgerlyWeb
import Testing

/// A store refusal goes beside the form field the person typed into, whatever the request calls
/// it; one the form has no field for goes above the form, never lost (D519).
@Suite struct StoreFieldMappingTests {
    @Test func rateSetFieldsLandBesideTheirFormFields() {
        let mapping = StoreFieldMapping.rateSet
        #expect(mapping.formField(forStoreField: "body.rate") == "rate")
        #expect(mapping.formField(forStoreField: "body.base") == "base")
        #expect(mapping.formField(forStoreField: "body.asOf") == "day")
        #expect(mapping.formField(forStoreField: "body.profileId") == "profile")
    }

    @Test func convertAndBudgetFieldsAreRenamed() {
        #expect(StoreFieldMapping.convert.formField(forStoreField: "body.at") == "day")
        #expect(StoreFieldMapping.convert.formField(forStoreField: "body.amount") == "amount")
        #expect(StoreFieldMapping.budgetSet.formField(forStoreField: "body.limit") == "amount")
        #expect(StoreFieldMapping.budgetSet.formField(forStoreField: "body.categoryId") == "category")
        #expect(StoreFieldMapping.budgetSet.formField(forStoreField: "body.thresholds[2]") == "_form")
    }

    @Test func aFieldTheFormDoesNotHaveGoesAboveTheForm() {
        #expect(StoreFieldMapping.rateSet.formField(forStoreField: nil) == "_form")
        #expect(StoreFieldMapping.rateSet.formField(forStoreField: "body.customOverride") == "_form")
        #expect(StoreFieldMapping.convert.formField(forStoreField: "body.preview") == "_form")
    }
}
